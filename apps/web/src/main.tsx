import "./lib/zod-config.ts";
import { standalonePage } from "./pages/public/site/standalone-pages.ts";
import "./styles.css";

const container = document.getElementById("root");
if (!container) throw new Error("index.html is missing the #root element");

// The marketing pages are most visitors' first contact, so they start without the router and the signed-in app's code
// (docs/engineering.md: landing page <= 100 KB of JavaScript, gzip); the app takes over on the first navigation away.
// Both branches are dynamic imports, so the browser fetches each branch's chunks in parallel.
const startApp = () => import("./app/start-app.tsx").then((app) => app.startApp(container));
const loadPage = standalonePage(window.location.pathname);
if (loadPage) {
  Promise.all([import("./pages/public/site/standalone.tsx"), loadPage()])
    .then(([{ startStandalone }, Page]) => startStandalone(container, Page))
    // Should the page's code not arrive, the app shows the same page, or its error screen with a way to retry.
    .catch(startApp);
} else {
  void startApp();
}
