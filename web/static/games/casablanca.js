/* casablanca: page code of this game (loaded by base.html after app.js).
   Nothing left: the bribes and moves are asked by the one "your move" card
   (static/move.js), which shows what is left of a bribe as the amounts are typed and
   offers only the spaces next to the chosen agent. */
"use strict";
