/* nasty7: page code of this game (loaded by base.html after app.js). */
"use strict";
