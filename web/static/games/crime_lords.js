/* crime_lords: page code of this game (loaded by base.html after app.js). Every control
   is the "your move" card's (static/move.js, built from the engine's moves); this file
   only loads the game's stylesheet for the Mob trees and the table. */
"use strict";

(function clStyle() {  // this game's stylesheet (the page's policy allows only files)
  if (document.querySelector('link[data-cl-style]')) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/games/crime_lords.css";
  link.dataset.clStyle = "1";
  document.head.append(link);
})();
