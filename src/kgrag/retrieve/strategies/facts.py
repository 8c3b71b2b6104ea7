"""`kg-facts`: hybrid's candidates, re-ranked by product scoping, plus a compact spec-fact table from the graph.

1. Hybrid candidates (dense + BM25, α-fusion) as in `hybrid`.
2. The question's products/components are linked (retrieve/scoping.py, longest name wins, numeric-safe);
   the linked products' own chunks and the chunks naming a linked component join the candidates (dense
   order within them) and get a bonus; chunks of other products are damped when a product was named.
   A question asking which product and then more of it ("Which Nicla board has a ToF sensor, and what
   microcontroller does it use?") is scoped to the product its first clause finds (`bridge_product`).
3. Facts around the linked entities (retrieve/fact_table.py) go first as `attribute | value [n]` lines within
   FACT_SHARE of the budget; the re-ranked chunks fill the rest. With no link the result is hybrid's.
Weights were chosen on the Arduino dev questions only (docs/benchmarks.md).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from kgrag.answering.asks import ASK_WORDS, asks_difference, second_question
from kgrag.answering.aspects import with_aspect_words
from kgrag.answering.terms import analyse, asks_product
from kgrag.graph.adjacency import GraphAdjacency, get_adjacency
from kgrag.graph.algorithms import subgraph_from
from kgrag.graph.datasheet.vocab import FAMILY_TYPE, PRODUCT_TYPE
from kgrag.graph.keys import name_tokens
from kgrag.retrieve.base import Retriever, register
from kgrag.retrieve.chunks import allowed_chunks, chunk_items, named_passages_first, sparse_search
from kgrag.retrieve.compact import MAX_OVERLAP, compact_items, novel_items
from kgrag.retrieve.described import described_product
from kgrag.retrieve.diversity import mmr_order
from kgrag.retrieve.fact_table import CLASS_WEIGHT, UNIT_WEIGHT, collect_facts, fact_lines, fit_facts
from kgrag.retrieve.fusion import alpha_fuse, minmax
from kgrag.retrieve.kind_facts import asked_kinds, kind_facts
from kgrag.retrieve.packing import pack
from kgrag.retrieve.query_linking import question_vector
from kgrag.retrieve.scoping import Link, chunk_products, link_question, mentioned_products, product_neighbours
from kgrag.retrieve.strategies.basic import candidate_count
from kgrag.retrieve.unit_pack import MAX_EXCERPTED, WHOLE_SHARE, pack_evidence
from kgrag.types import Context, ContextItem

FACT_SHARE = 0.15  # at most this share of the budget for the fact table
SCOPE_BONUS = 0.6  # added (times the chunk's dense rank score within the scope) to a linked product's chunks
COMPONENT_BONUS = 0.35  # same for chunks naming a linked component
OTHER_PRODUCT = 0.6  # multiplier of chunks that belong only to products the question did not name
SCOPED_K = 12  # chunks taken from each scope by dense similarity
SCOPED_LEXICAL = 0.5  # weight of BM25 (the question without the scope's name) in picking them
REACH = 3.0  # candidates read for excerpts: this many budgets' worth of chunks after hygiene
MAX_CANDIDATES = 80  # ranked chunks considered for packing (4k tokens hold ~25 datasheet chunks)


def _scoped(index: Any, qvec: np.ndarray, chunk_ids: Sequence[str], k: int, asked: str = "",
            lexical: float = 0.0) -> dict[str, float]:
    """The k chunks of a scope closest to the question, min-max scored: by embedding, and with weight `lexical` by
    BM25 of the words `asked` (a feature list "54 Digital | 16 Analog | 15 PWM Output" is far from "How many PWM pins
    …" in embedding space but holds its words)."""
    if not chunk_ids:
        return {}
    vectors = index.store.get_vectors("chunk", list(chunk_ids))
    sims = vectors @ qvec
    if lexical <= 0 or not asked:
        top = np.argsort(-sims)[:k]
        return minmax([(chunk_ids[i], float(sims[i])) for i in top])
    words = index.store.search_text(asked, len(chunk_ids), chunk_ids)
    return minmax(alpha_fuse(list(zip(chunk_ids, sims.tolist(), strict=True)), words, 1 - lexical)[:k])


def _without_name(question: str, name: str) -> str:
    """The question's words that are not words of `name`: within the documents of a product (or the chunks naming a
    part) its name matches everywhere, the other words say what is asked ("PWM pins")."""
    own = set(name_tokens(name))
    return " ".join(w for w in question.split() if not set(name_tokens(w)) <= own)


def scope_words(question: str, name: str, aspects: bool = True) -> str:
    """The words that pick a named thing's own chunks: the question's words that are not the name's, and for an
    overview the words datasheet rows write for its aspect ("Summarize the wireless connectivity of the A" is answered
    by "Wi-Fi | 802.11b/g/n" and "Bluetooth 4.2" rows, which say neither "wireless" nor "connectivity")."""
    asked = _without_name(question, name)
    return with_aspect_words(asked, question) if aspects else asked


def _lazy_items(index: Any, ranked: Sequence[tuple[str, float]], batch: int = 40) -> Iterator[ContextItem]:
    """Chunk items in rank order, read from the store a batch at a time (packing rarely needs all candidates)."""
    for start in range(0, len(ranked), batch):
        yield from chunk_items(index, ranked[start:start + batch])


def rank_chunks(index: Any, adj: GraphAdjacency, question: str, qvec: np.ndarray, links: list[Link], k: int,
                alpha: float, version: str | None, opts: dict[str, Any]) -> tuple[list[tuple[str, float]], dict[str, Any]]:
    """Hybrid candidates plus scoped ones, scored hybrid + scope bonuses, other products damped."""
    allowed = allowed_chunks(index, version)
    dense = index.store.search_vectors("chunk", qvec, k, allowed)
    aspects = bool(opts.get("aspects", True))  # an overview's aspect also in the words its rows use
    words = with_aspect_words(question, question) if aspects else question
    scores = dict(alpha_fuse(dense, sparse_search(index, words, k, version), alpha, k))
    products = {lk.node for lk in links if lk.type == "Product"}
    components = [lk.node for lk in links if lk.type not in ("Product", "ProductFamily", "Interface")]
    info: dict[str, Any] = {"scoped_products": [adj.names[n] for n in products]}
    bonus: dict[str, float] = {}
    groups = [(sorted(products), float(opts.get("scope_bonus", SCOPE_BONUS))),
              (components, float(opts.get("component_bonus", COMPONENT_BONUS)))]
    for nodes, weight in groups:
        if not nodes:
            continue
        holders = index.store.chunks_of_entities([adj.ids[n] for n in nodes])
        for node in nodes:
            ids = [c for c in holders.get(adj.ids[node], []) if allowed is None or c in allowed]
            asked = scope_words(question, adj.names[node], aspects)
            for cid, s in _scoped(index, qvec, ids, SCOPED_K, asked, float(opts.get("scoped_lexical", SCOPED_LEXICAL))).items():
                bonus[cid] = bonus.get(cid, 0.0) + weight * (0.5 + 0.5 * s)
    for cid in bonus:
        scores.setdefault(cid, 0.0)
    if products:
        owners = chunk_products(index, adj, list(scores))
        for cid, own in owners.items():
            if own and not own & products:
                scores[cid] *= float(opts.get("other_product", OTHER_PRODUCT))
    ranked = sorted(((c, s + bonus.get(c, 0.0)) for c, s in scores.items()), key=lambda kv: (-kv[1], kv[0]))
    return named_passages_first(index, question, qvec, ranked, alpha, allowed), info


BRIDGE_TOP = 5  # first-ranked chunks that vote for the product a which-board question points to
# a first clause asking which product, wherever its "which" stands: "plugs into which Portenta board", "What board acts"
_PRODUCT_KIND = r"(board|module|shield|carrier|kit|product)s?"  # the kind of product a clause asks for (group 2)
_WHICH_PRODUCT = re.compile(rf"\b(?:which|what)\s+((?:[\w-]+\s+){{0,2}}?){_PRODUCT_KIND}\b", re.IGNORECASE)
_ANY_MAKER = frozenset({"arduino"})  # a qualifier every product's name may carry: it picks none
# "The board that acts as the B's main controller: what SoC …?", "The shield that comes in the A – what amp chip …?": a
# product a relative clause describes, set apart by a colon or a dash from the question asked of it
_THE_PRODUCT_THAT = re.compile(rf"^\s*(?:the|that)\s+((?:[\w-]+\s+){{0,2}}?){_PRODUCT_KIND}\s+"
                               r"(?:that|which)\b[^:;—–?]*?(?=\s*[:—–]|\s+-\s)", re.IGNORECASE)
_NAMED_KINDS = frozenset({"module", "shield", "carrier", "kit"})  # a kind a product's name carries: "Vision Shield"


def bridge_product(index: Any, adj: GraphAdjacency, question: str, links: list[Link], k: int, alpha: float,
                   opts: dict[str, Any]) -> int | None:
    """For a question that asks which product and then asks more of it ("Which Nicla board includes a
    time-of-flight sensor, and what microcontroller does that board use?"): the product most of the first-ranked
    chunks for the question's first clause belong to, among the products linked to every part, interface and family
    the question names, never a product it names.
    Its own chunks and facts answer the second part; None for other questions."""
    q = analyse(question)
    described = _THE_PRODUCT_THAT.match(question)
    # "…, and what …", "… and which …": a second question about the product the first clause asks for
    second = second_question(question, bare_and=True, conjunctions=frozenset({"", "and"}), words=ASK_WORDS - {"why"})
    clause = described[0] if described else question[:second.start()] if second else ""  # "Which Nicla board includes
    which = described or _WHICH_PRODUCT.search(clause)  # a time-of-flight sensor": what picks the board ("The A plugs
    if not (described or second and (asks_product(q) or which)):  # into which Portenta board, and …", "What board acts
        return None  # as the B's main controller, and …")
    ranked, _ = rank_chunks(index, adj, clause, question_vector(index, clause), links, k, alpha, opts.get("version"), opts)
    named = {lk.node for lk in links if lk.type == PRODUCT_TYPE}
    candidates: set[int] | None = None  # the products that have each named part and belong to each named family
    for lk in links:
        if lk.type != PRODUCT_TYPE:
            near = product_neighbours(adj, lk.node) - named
            candidates = near if candidates is None else candidates & near
    top = [c for c, _ in ranked[:BRIDGE_TOP]]
    owners = chunk_products(index, adj, top)
    # "Which Nano board sits at the heart of the A": a product the A's own chunks name ("run by a Nano RP2040 Connect")
    # whose name holds the clause's words for it ("Nano"), else the chunks' own products
    about_named = [c for c in top if owners.get(c, set()) & named] if which else []
    qualifiers = {w.lower() for w in which.group(1).split()} - _ANY_MAKER if which else set()
    kind = which.group(2).lower() if which and which.group(2).lower() in _NAMED_KINDS else ""  # "the shield that comes
    # in the A": a product whose name says shield, not the A's board
    mentioned = {c: {n for n in found if qualifiers <= set(adj.names[n].lower().split())}
                 for c, found in mentioned_products(index, adj, about_named).items()}
    for found, chunks in ((mentioned, about_named), (owners, top)):
        votes: Counter[int] = Counter()
        for rank, cid in enumerate(chunks):
            own = found.get(cid, set()) - named
            own = own if candidates is None else own & candidates
            own = {n for n in own if kind in adj.names[n].lower().split()} if kind else own
            for node in own:
                votes[node] += 1.0 / (rank + 1) / len(own)
        if votes:
            return votes.most_common(1)[0][0]
    return None


@register
class FactsRetriever(Retriever):
    name = "kg-facts"
    description = ("Hybrid candidates re-ranked by product scoping (linked products/components first, similar "
                   "names damped) plus a compact spec-fact table from the datasheet graph.")

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        index = self.index
        adj = get_adjacency(index.store)
        qvec = question_vector(index, question)
        links = link_question(index, question, adj, qvec) if adj.n_nodes else []
        k = candidate_count(budget, index.settings.retrieval.top_k)
        alpha = float(options.get("alpha", index.settings.retrieval.alpha))
        ranked, info = rank_chunks(index, adj, question, qvec, links, k, alpha, options.get("version"), options)
        bridge = bridge_product(index, adj, question, links, k, alpha, options) if options.get("bridge", True) else None
        match = "bridge" if bridge is not None else "described"  # else "the X-based board": the one with that part
        bridge = described_product(adj, question, links) if bridge is None else bridge
        if bridge is not None:  # "Which board has X, and what Y does it use?": that board's own chunks and facts
            links = [*links, Link(bridge, adj.names[bridge], "Product", match, 0.5)]
            ranked, info = rank_chunks(index, adj, question, qvec, links, k, alpha, options.get("version"), options)
            info["bridge"] = adj.names[bridge]
        info["linked"] = [{"name": lk.name, "type": lk.type, "match": lk.match} for lk in links]
        share = float(options.get("fact_share", FACT_SHARE))
        products = sum(adj.types[lk.node] == PRODUCT_TYPE for lk in links)  # "how do the A and the B differ?"
        facts = collect_facts(adj, [lk.node for lk in links], question,
                              class_weight=float(options.get("class_weight", CLASS_WEIGHT)),
                              unit_weight=float(options.get("unit_weight", UNIT_WEIGHT)),
                              parts=products >= 2 and asks_difference(question)) if links and share > 0 else []
        kinds = asked_kinds(question) if share > 0 and not products else None
        if kinds and kinds.kinds:  # "Which boards have an IMU?": the parts the documents call so, with their products
            families = [lk.node for lk in links if lk.type == FAMILY_TYPE]  # "Which Nano boards …": that family's
            within = set().union(*(product_neighbours(adj, f) for f in families)) if families else None
            found, info["parts_of_kind"] = kind_facts(adj, kinds, within)
            facts = found + facts
        facts = fit_facts(adj, facts, int(budget * share))
        if facts:
            support = index.store.relation_support([adj.rel_ids[f.rel] for f in facts])
            for f in facts:
                f.chunks = support.get(adj.rel_ids[f.rel], [])
        draft = [ContextItem(kind="relation", text=text) for _, text, _ in fact_lines(adj, facts, {})]
        _, fact_tokens = pack(draft, int(budget * share), truncate_last=False)
        reserve = fact_tokens + 4 * len(facts) if facts else 0  # room for the "[n]" source numbers
        top = ranked[:MAX_CANDIDATES]
        if float(options.get("mmr", 1.0)) < 1:
            top = mmr_order(top, index.store.get_vectors("chunk", [c for c, _ in top]), float(options["mmr"]))
        raw: Iterable[ContextItem] = _lazy_items(index, top)
        if options.get("compact", True):
            raw = compact_items(raw, question)
        whole_share = float(options.get("whole_share", WHOLE_SHARE))
        reach = budget if whole_share >= 1 else int(budget * float(options.get("reach", REACH)))
        candidates = novel_items(raw, float(options.get("max_overlap", MAX_OVERLAP)), reach,
                                 bool(options.get("note_copies", True)), info["scoped_products"],  # "the A or the B?"
                                 question)
        if whole_share < 1:
            candidates = pack_evidence(question, candidates, budget - reserve, whole_share,
                                       int(options.get("max_excerpted", MAX_EXCERPTED)),
                                       index.embedder if options.get("dense_units") else None)
        chunks, used_chunks = pack(candidates, budget - reserve)
        block_of = {c.chunk_id: n + 2 for n, c in enumerate(chunks) if c.chunk_id}
        by_chunk = {c.chunk_id: c for c in chunks if c.chunk_id}
        shown = {cid: c.text for cid, c in by_chunk.items()}
        items = [self._fact_item(adj, subject, text, rels, facts, by_chunk)
                 for subject, text, rels in fact_lines(adj, facts, block_of, shown)]
        packed_facts, used_facts = pack(items, max(0, budget - used_chunks), truncate_last=False)
        packed_ids = {r for item in packed_facts for r in item.source["relations"]}
        shown = [f.rel for f in facts if adj.rel_ids[f.rel] in packed_ids]
        sub = subgraph_from(adj, {lk.node: lk.score for lk in links}, shown, seeds=[lk.node for lk in links])
        info.update(facts=sum(len(i.text.splitlines()) - 1 for i in packed_facts), chunks=len(chunks))
        return Context(question=question, strategy=self.name, items=packed_facts + chunks,
                       tokens=used_facts + used_chunks, budget=budget, subgraph=sub.to_subgraph(), info=info)

    def _fact_item(self, adj: GraphAdjacency, subject: int, text: str, rels: list[int], facts: list[Any],
                   packed: dict[str, ContextItem]) -> ContextItem:
        """One subject's facts as an item; its source is the first supporting chunk that is also in the context."""
        by_rel = {f.rel: f for f in facts}
        chunks = list(dict.fromkeys(c for r in rels for c in by_rel[r].chunks))
        ref = next((packed[c] for c in chunks if c in packed), None)
        source = {**(ref.source if ref else {}), "chunks": chunks[:10], "relations": [adj.rel_ids[r] for r in rels]}
        return ContextItem(kind="relation", text=text, score=1.0, chunk_id=None, doc_id=ref.doc_id if ref else None,
                           item_id=f"facts:{adj.ids[subject]}", source=source)
