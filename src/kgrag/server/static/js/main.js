// Page start-up: tabs, API key button, and the three views.
import { askForKey } from "./api.js";
import { initAsk, loadStrategies } from "./ask.js";
import { initManage, loadDocuments, loadStats } from "./manage.js";

const loaders = { ask: loadStrategies, documents: loadDocuments, stats: loadStats };

function show(view) {
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.view === view));
  document.querySelectorAll(".view").forEach((v) => v.classList.toggle("active", v.id === `view-${view}`));
  const notice = document.getElementById("notice");
  notice.hidden = true;
  loaders[view]().catch((err) => {
    notice.textContent = `Could not load ${view}: ${err.message}`;
    notice.hidden = false;
  });
}

document.querySelectorAll(".tab").forEach((tab) => tab.addEventListener("click", () => show(tab.dataset.view)));
document.getElementById("key-btn").addEventListener("click", async () => {
  if (await askForKey()) show(document.querySelector(".tab.active").dataset.view);
});
initAsk();
initManage();
show("ask");
