/**
 * Challenges on any page (the lobby, a game): include this script and the page gets the live box
 * of `social-live.js` (and its person counts as online). Its styles come with it.
 */

import { startChallengeAlerts } from "./social-live.js";

if (!document.querySelector('link[href="/static/css/social.css"]')) {
  document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href: "/static/css/social.css" }));
}
startChallengeAlerts();
