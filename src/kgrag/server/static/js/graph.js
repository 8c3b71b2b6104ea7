// The retrieved subgraph drawn with Cytoscape.js: nodes coloured by entity type, edges labelled by relation.
import { api, esc } from "./api.js";

const PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#8cd17d"];
const typeColours = new Map();
let cy = null;

function colour(type) {
  const key = type || "entity";
  if (!typeColours.has(key)) typeColours.set(key, PALETTE[typeColours.size % PALETTE.length]);
  return typeColours.get(key);
}

function init() {
  cy = cytoscape({
    container: document.getElementById("graph"),
    wheelSensitivity: 0.3,
    maxZoom: 2.5,
    style: [
      { selector: "node", style: {
        "background-color": "data(colour)", label: "data(name)", "font-size": 12, color: "#1f2933", "min-zoomed-font-size": 6,
        "text-valign": "bottom", "text-margin-y": 3, width: 18, height: 18, "text-wrap": "ellipsis", "text-max-width": 110 } },
      { selector: "node.center", style: { "border-width": 3, "border-color": "#1f2933" } },
      { selector: "node:selected", style: { "border-width": 3, "border-color": "#d6336c" } },
      { selector: "edge", style: {
        width: 1.4, "line-color": "#aab4be", "target-arrow-color": "#aab4be", "target-arrow-shape": "triangle",
        "curve-style": "bezier", label: "data(type)", "font-size": 10, color: "#52606d",
        "text-rotation": "autorotate", "text-background-color": "#fff", "text-background-opacity": 0.8 } },
    ],
  });
  window.kgragGraph = cy; // for tests and the console
  cy.on("tap", "node", (evt) => expand(evt.target));
  document.getElementById("graph-fit").onclick = () => cy.fit(undefined, 20);
}

function add(graph, near) {
  const added = [];
  for (const n of graph.nodes) {
    if (cy.getElementById(n.id).nonempty()) continue;
    const node = { group: "nodes", data: { id: n.id, name: n.name, type: n.type || "", colour: colour(n.type), chunks: n.chunks || [] } };
    if (near) node.position = { x: near.x + (Math.random() - 0.5) * 60, y: near.y + (Math.random() - 0.5) * 60 };
    added.push(node);
  }
  for (const e of graph.edges) {
    if (cy.getElementById(e.id).nonempty()) continue;
    added.push({ group: "edges", data: { id: e.id, source: e.source, target: e.target, type: e.type, chunks: e.chunks || [] } });
  }
  cy.add(added.filter((el) => el.group === "nodes"));
  cy.add(added.filter((el) => el.group === "edges" && cy.getElementById(el.data.source).nonempty() && cy.getElementById(el.data.target).nonempty()));
  return added.length;
}

function layout(randomize = true) {
  cy.layout({
    name: "cose", animate: false, randomize, padding: 20, nodeRepulsion: () => 60000, idealEdgeLength: () => 60,
    nodeOverlap: 20, componentSpacing: 40, gravity: 1, numIter: 2000,
  }).run();
  legend();
  document.getElementById("graph-info").textContent = `${cy.nodes().length} entities · ${cy.edges().length} relations`;
}

function legend() {
  const types = [...new Set(cy.nodes().map((n) => n.data("type") || "entity"))].sort();
  document.getElementById("graph-legend").innerHTML = types
    .map((t) => `<span class="chip"><i style="background:${colour(t)}"></i>${esc(t)}</span>`).join("");
}

export function showSubgraph(subgraph) {
  if (!cy) init();
  cy.elements().remove();
  const detail = document.getElementById("graph-detail");
  if (!subgraph || !subgraph.nodes.length) {
    document.getElementById("graph-info").textContent = "no graph for this answer";
    document.getElementById("graph-legend").innerHTML = "";
    detail.textContent = "No entities found in the retrieved context (build the graph with `kgrag index`).";
    return;
  }
  add(subgraph);
  layout();
  detail.textContent = "Click a node to expand its neighbourhood.";
}

async function expand(node) {
  const detail = document.getElementById("graph-detail");
  detail.innerHTML = `<b>${esc(node.data("name"))}</b> <span class="muted">${esc(node.data("type"))}</span> · loading neighbourhood…`;
  try {
    const graph = await api(`/graph/entity/${encodeURIComponent(node.id())}?hops=1`);
    const n = add(graph, node.position());
    node.addClass("center");
    layout(false); // keep the current picture, place the new neighbours around it
    detail.innerHTML = `<b>${esc(node.data("name"))}</b> <span class="muted">${esc(node.data("type"))}</span> · ${graph.nodes.length - 1} neighbours${n ? "" : " (all shown already)"}`;
  } catch (err) {
    detail.textContent = `Could not expand: ${err.message}`;
  }
}
