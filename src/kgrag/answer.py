"""Grounded generation: numbered context blocks in, an answer citing them as [n] out, with quoted sentences."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kgrag.answering.asked_first import asked_first
from kgrag.answering.asks import asks_overview, asks_remedy
from kgrag.answering.blocks import Block, build_blocks, finish_answer, make_citations
from kgrag.answering.choose import try_choose
from kgrag.answering.clauses import joined, other_clause_units, quote_each_clause, quote_each_item, quote_each_word
from kgrag.answering.coded import try_coded_rows
from kgrag.answering.compare import try_compare
from kgrag.answering.differ import parts_overview, try_differences
from kgrag.answering.extract import try_extract
from kgrag.answering.extremes import try_extreme
from kgrag.answering.families import family_overview
from kgrag.answering.features import features_quote, first_quote
from kgrag.answering.graph_lists import try_kind_list, try_list
from kgrag.answering.grounding import reply_problems
from kgrag.answering.labelled import try_labelled
from kgrag.answering.lookup import try_lookup
from kgrag.answering.matrix import try_matrix
from kgrag.answering.messages import answer_messages, with_product_name
from kgrag.answering.names import code_stem_found, missing_items, missing_kind, name_found
from kgrag.answering.procedure import try_procedure
from kgrag.answering.quotes import (
    NO_DIRECT_ANSWER,
    documents_tail,
    evidence_lead,
    followed_by,
    key_quotes,
    quote_answer,
    sides_first,
)
from kgrag.answering.refusal import NO_ANSWER, is_refusal
from kgrag.answering.releases import try_release_notes
from kgrag.answering.remedy import try_remedy
from kgrag.answering.select import focus_units
from kgrag.answering.suits import try_suits, writes_value_for
from kgrag.answering.terms import analyse, asks_product, asks_yes_no, question_coverage
from kgrag.answering.tidy import loops, tidy_reply
from kgrag.answering.unknown_names import unknown_names
from kgrag.answering.variants import try_variant_differences, try_variant_has, try_variants
from kgrag.errors import ConfigError
from kgrag.models.base import LLM, Embedder
from kgrag.types import Answer, Context

if TYPE_CHECKING:
    from kgrag.config import Settings

MODES = ("auto", "extractive", "generative")
OVERVIEW_PASSAGES = 5  # passages after a small model's overview answer (4 / 5 / 6: summary fact recall 0.40 / 0.42 / 0.43)
DIFFERENCE_QUOTES = 4  # passages after the parts two products do not share (2 / 4: no set lower, 11 sets up)
FOCUS_SLACK = 0.1  # the focused context may cover a little less of the question than the whole context
MIN_QUESTION_COVERAGE = 0.45
NEAR_MISS = 0.15  # a small model's question covered a little less than that gets the closest passages, not a refusal
REWORDED = 0.10  # above MIN_RELEVANCE: a question sharing few words with the documents is shown passages this close
MIN_RELEVANCE = 0.40  # bundled MiniLM: best cosine of any focused unit to the question below which the documents
# do not address it (Arduino dev: 3 not-in-docs questions at 0.37-0.40, every answerable one >= 0.43; 55 spec questions >= 0.52)


def covers(question: str, context: Context, min_coverage: float) -> bool:
    """True when the context is non-empty and shares enough of the question's terms (see question_coverage)."""
    if not context.items:
        return False
    coverage = question_coverage(question, context.text())
    context.info["question_coverage"] = round(coverage, 3)
    titles = [str(item.source.get("title") or "") for item in context.items]  # a value asked of a product it holds
    return coverage >= min_coverage or writes_value_for(question, titles)  # is on topic whatever else it says


@dataclass
class Plan:
    """What answering a question will do: refuse, quote (extractive), show evidence or ask the LLM over `blocks`."""

    blocks: list[Block]
    action: str  # refuse | quote | evidence | generate
    text: str = ""  # the answer for refuse and quote
    max_tokens: int = 256
    evidence: str = NO_ANSWER  # auto mode: the best quoted units, shown after `lead` instead of a refusal
    lead: str = ""  # what the evidence answer says first; "": by its first passage (see evidence_lead)
    support: str = ""  # the unit an extractive answer quotes (its citation shows that sentence, not the heading)
    sources: list[Block] = field(default_factory=list)  # every block (the evidence may cite outside the focus)
    follow_up: Callable[[str], str] | None = None  # a small model's reply -> the quotes that follow its answer
    note: str = ""  # the graph's list of the asked kind of parts, last after a small model's overview answer
    asked: str = ""  # the question as the model reads it, when it differs (see with_product_name)


def plan_answer(
    question: str, context: Context, *, mode: str = "generative", focus_tokens: int = 0,
    min_coverage: float = MIN_QUESTION_COVERAGE, embedder: Embedder | None = None, max_tokens: int = 256,
    min_relevance: float = 0.0, passages: int = 0,
) -> Plan:
    """Choose the answer path: refusal when the context misses the question, the closest quotes (auto) or a
    refusal when the focused units miss it, a quote when `mode` allows and one unit states the asked value, the
    closest quotes for a yes/no question in auto mode with a small (focused) model, else the LLM over the focused
    blocks (`focus_tokens` > 0) or all of them."""
    if mode not in MODES:
        raise ConfigError(f"answer mode {mode!r}: use one of {', '.join(MODES)}")
    question = asked_first(question)  # "I have the A. Which IMU chips are on it?": the asked sentence, first
    blocks = build_blocks(context)
    missed = not covers(question, context, min_coverage)
    small = mode == "auto" and focus_tokens > 0
    near = small and context.info.get("question_coverage", 0.0) >= min_coverage - NEAR_MISS
    reworded = small and embedder is not None and min_relevance > 0  # the dense score may still find a rewording
    if missed and not near and not reworded:
        return Plan(blocks, "refuse", NO_ANSWER)
    if mode == "generative" and focus_tokens <= 0:
        return Plan(blocks, "generate", max_tokens=max_tokens)
    q = analyse(question)
    names_text = "\n".join(b.header() + "\n" + b.text for b in blocks).lower()
    if q.parts and not any(name_found(p, names_text) or code_stem_found(p, names_text) for p in q.parts):
        context.info["missing_parts"] = q.parts
        return Plan(blocks, "refuse", NO_ANSWER)
    scopes = {b.n: b.header() for b in blocks}
    titles = {b.n: b.title for b in blocks}  # every quote says whose it is (which board, two products, a part's facts)
    facts = [b for b in blocks if b.items and b.items[0].kind == "relation"]
    fact_texts = {b.n: b.text for b in facts}  # the graph's fact table, read by the list, difference and overview paths
    documents = [b.text for b in blocks if b not in facts]  # where the documents say what a listed part is
    # an overview's parts and specs from the graph (a named family's: its products' parts of the asked kind), after
    # the answer:
    note = (parts_overview(q, fact_texts, documents) or family_overview(q, fact_texts, documents)) if small else ""
    read = {b.n: b.text for b in blocks if not (note and b in facts)}  # the model and the passages read the documents
    focus = focus_units(question, read, scopes, max(focus_tokens, 200), embedder, titles)

    def quoted(path: str, text: str, then_passages: bool = True) -> Plan:
        """A quoted answer found on `path`, followed in auto mode, as a quote is, by the passages on what is asked."""
        context.info["answer_path"] = path
        if then_passages and mode == "auto" and passages:
            text = followed_by(text, key_quotes(q, focus, titles, passages, text))
        return Plan(blocks, "quote", text)

    focused = focus.focused_blocks(blocks)
    coverage = question_coverage(question, "\n".join([b.header() for b in focused] + [b.text for b in focused]))
    context.info.update(focus_tokens=focus.tokens, focus_coverage=round(coverage, 3))
    if not focused:
        return Plan(blocks, "refuse", NO_ANSWER)
    relevance = max((s.parts.get("dense", 0.0) for s in focus.ranked), default=0.0)
    if missed and not near and relevance < min_relevance + REWORDED:  # few asked words, and no passage close either
        context.info["relevance"] = round(relevance, 3)
        return Plan(blocks, "refuse", NO_ANSWER)

    def coded_row() -> Plan | None:
        """The row a named code leads ("What does E14 mean?"); asked what to do about it ("My unit shows E15 after
        rewiring, what now?"), followed by every passage the closest-passages answer would have shown."""
        coded = try_coded_rows(q, focus.ranked, titles)
        if coded is None or not asks_remedy(question):
            return None if coded is None else quoted("coded row", coded)
        context.info["answer_path"] = "coded row"
        quotes = quote_answer(focus.ranked, titles=titles, said=coded) if mode == "auto" and passages else NO_ANSWER
        return Plan(blocks, "quote", followed_by(coded, quotes))

    if (missed or relevance < min_relevance) and mode != "generative":  # the user's words are not the documents':
        early = coded_row()  # a code's row ("what does E17 mean": a short question close to no passage), or the
        rated = None if early else try_variants(question, focus.ranked)  # variants a row rates for the written value
        if early or rated:
            return early or quoted("variant table", str(rated))
    if missed:  # situation words no passage has ("I put the shield on a B"), or a rewording: a verdict its ratings
        rated = try_suits(q, focus.ranked, titles) if mode != "generative" else None  # decide, else closest passages
        return quoted("rating", rated, False) if rated else evidence_plan(blocks, context, quote_answer(focus.ranked, titles=titles))
    if (embedder is not None and min_relevance > 0 and relevance < min_relevance  # no passage is about the question,
            and not writes_value_for(question, titles.values())):  # unless it asks a value of a product held: the
        # user's situation ("a cabinet that gets close to 80 °C") is in no passage, the product's ratings are
        context.info["relevance"] = round(relevance, 3)
        evidence = quote_answer(focus.ranked, titles=titles) if mode != "generative" else NO_ANSWER
        return evidence_plan(blocks, context, evidence, NO_DIRECT_ANSWER)  # however many of its words they write
    unknown = unknown_names(question, q, names_text, [(b.title, b.text, b in facts) for b in blocks], mode)
    if unknown:  # the question names something the context never mentions (or only lists): say so, show what was found
        context.info[unknown.key] = unknown.names
        return evidence_plan(blocks, context, quote_answer(focus.ranked, titles=titles),
                             f"The documents found do not {unknown.verb} {' or '.join(unknown.names)}; the closest passages:")
    if mode in ("extractive", "auto"):  # "which boards use the X": the graph's fact table lists them ("which boards
        # have an IMU": the products of the parts of that kind the retriever put there)
        listed = try_kind_list(q, fact_texts, context.info.get("parts_of_kind", {})) or try_list(q, fact_texts, documents)
        differ = try_differences(q, fact_texts, documents) if listed is None else None
        if differ is not None:  # "…, or did its components change?": the parts each product lists and the other not,
            quotes = quote_answer(focus.ranked, DIFFERENCE_QUOTES, titles, said=differ)  # then the documents' words
            listed = followed_by(differ, quotes)
        if listed is not None:  # the names alone, then what the documents say of them (a difference has its own)
            return quoted("graph list", listed, then_passages=differ is None)
        picked = (try_variants(question, focus.ranked) or try_variant_has(question, focus.ranked, asks_yes_no(q))
                  or try_variant_differences(question, focus.ranked))  # "Which Opta variants have RS-485?", "Does
        if picked is not None:  # the Opta Lite?", "the A or the A Lite?": the variant table's cells
            return quoted("variant table", picked)
        marked = try_matrix(q, focus.ranked, titles)  # "Which accessories fit the TX-20?": the marks of the column
        if marked is not None:  # it names
            return quoted("mark matrix", marked)
        chosen = try_choose(q, focus.ranked, titles)  # "the A or the B for …?": the documents' evidence decides,
        if chosen is not None:  # quoted, then what each option has instead
            return quoted("choice", chosen)
        rated = try_suits(q, focus.ranked, titles)  # "can the A take 9 V?": its rating decides, quoted
        if rated is not None:
            return quoted("rating", rated, then_passages=False)
    features = features_quote(question, blocks, titles, context.info.get("linked", ())) if small else ""  # an overview of one product: its list
    evidence = first_quote(features, quote_answer(sides_first(q, focus.ranked, titles), titles=titles, said=features)
                           ) if mode == "auto" else NO_ANSWER
    own = [s for s in focus.ranked if s.own]
    own_texts = [s.unit.scoped() for s in own]
    # a question asking which product ("Which add-on board for the A … what display does it carry?") asks about
    # another one than the A it names: the A's documents need not name the kind
    kind = missing_kind(q.attributes, own_texts) if mode != "generative" and not asks_product(q) else None
    if kind:  # "the camera frame rate of the Machine Control": its documents name no camera
        context.info["missing_kind"] = kind
        return evidence_plan(blocks, context, evidence, f"The documents found do not mention a {kind} on the "
                                                        f"{titles.get(own[0].unit.block)}; the closest passages:")
    unlisted = missing_items(question, q.phrases, own_texts) if mode != "generative" else []
    if unlisted:  # "Summarize its SMT guidance: reflow profile, moisture sensitivity level, …": none of them is there
        context.info["missing_items"] = unlisted
        return evidence_plan(blocks, context, evidence, f"The documents found do not mention {', '.join(unlisted[:-1])} "
                                                        f"or {unlisted[-1]}; the closest passages:")
    if coverage < min_coverage - FOCUS_SLACK:  # the context covers the question, its best units do not: a small
        return evidence_plan(blocks, context, evidence)  # model would answer off-topic
    if mode in ("extractive", "auto"):
        steps = try_procedure(q, focus.ranked, titles)  # "How do I prime the pump?": its section's steps, in order
        if steps is not None:
            return quoted("procedure", steps, then_passages=False)
        notes = try_release_notes(q, focus.ranked, titles)  # "What changed in firmware 4.1?": its section's lines
        if notes is not None:
            return quoted("release notes", notes)
        compared = try_compare(q, focus.ranked, titles) or try_extreme(q, focus.ranked, titles)
        if compared is not None:
            return quoted("comparison", compared)
        looked_up = try_lookup(q, focus.ranked, titles)  # "Which key sets …": a table cell
        if looked_up is not None:
            return quoted("table lookup", looked_up)
        remedy = try_remedy(q, focus.ranked, titles, {b.n: str(b.source.get("section") or "") for b in blocks})
        if remedy is not None:  # "X happens. What should I do?": the Resolution of the record describing X
            return quoted("remedy", remedy, then_passages=False)
        labelled = try_labelled(q, focus.ranked, titles)  # "What is the workaround for …": a record's labelled line
        if labelled is not None:
            return quoted("labelled line", labelled)
        coded = coded_row()  # "What does alarm E14 mean?": the row the code leads
        if coded is not None:
            return coded
        # "…, and what …": a quote for each clause; else one unit stating the asked value, else a quote for each word
        units = [s.unit for s in focus.ranked]  # asked together ("the range and accuracy")
        found = quote_each_clause(question, units, scopes, titles, context.info.get("bridge", ""))
        if found is None:  # "… for Wi-Fi, Bluetooth EDR and Bluetooth LE?": a quote for each name listed
            found = quote_each_item(question, units, scopes, titles)
        if found is None:
            one = None if asks_overview(question) else try_extract(q, focus.ranked, titles)  # an overview: no one value
            found = [one] if one is not None else quote_each_word(question, units, scopes, titles)
        if found:
            context.info["answer_path"] = "extractive"
            text = joined(found)
            if mode == "auto" and passages:  # then, as after a model's answer, the passages on what is asked (first
                rest = other_clause_units(question, found, units, scopes, titles, context.info.get("bridge", ""))
                lead = first_quote(features, quote_answer(rest, 1, titles, said=f"{text} {features}") if rest else NO_ANSWER)
                said = text if is_refusal(lead) else f"{text} {lead}"
                text = followed_by(text, " ".join(t for t in (lead, key_quotes(q, focus, titles, passages, said))
                                                  if not is_refusal(t)) or NO_ANSWER)
            return Plan(blocks, "quote", text, support="\n".join(f.unit.text for f in found))
    if mode == "extractive":
        context.info["answer_path"] = "quotes"
        return Plan(blocks, "quote", quote_answer(focus.ranked, titles=titles))
    if asks_yes_no(q) and mode == "auto" and focus_tokens > 0:  # a small local model affirms what it is asked ("The X
        # includes a separate sensor"), also after a sentence on the user's situation: show the passages instead
        return evidence_plan(blocks, context, evidence)
    context.info["answer_path"] = "focused" if focus_tokens > 0 else "full"
    if passages and asks_overview(question):
        passages = max(passages, OVERVIEW_PASSAGES)  # a summary needs more of the documents' rows than one fact does
    asked = with_product_name(question, context.info.get("linked", ()))
    return Plan(focused if focus_tokens > 0 else blocks, "generate", max_tokens=max_tokens, evidence=evidence, sources=blocks,
                asked=asked if asked != question else "",
                follow_up=(lambda reply: first_quote(features, key_quotes(q, focus, titles, passages, f"{reply} {features}")))
                if small and passages else None, note=note)


def evidence_plan(blocks: list[Block], context: Context, evidence: str, lead: str = "") -> Plan:
    """Show the closest quoted units under `lead` (not grounded); a refusal when there is nothing to quote."""
    if is_refusal(evidence):
        return Plan(blocks, "refuse", NO_ANSWER)
    context.info["answer_path"] = "evidence"
    return Plan(blocks, "evidence", evidence=evidence, lead=lead)


def finish_plan(question: str, context: Context, plan: Plan, reply: str = "", usage: dict[str, int] | None = None
                ) -> Answer:
    """The Answer of a plan (with the LLM's `reply` for `generate`). Evidence answers ("no direct answer; the
    closest passages: ...") are not grounded: the user sees quotes, not an answer. They also replace a small
    model's refusal over a context that covers the question, an echo of the question, a reply stating a
    quantity no source holds, and one giving no number for a question that asks a quantity."""
    usage = usage or {}
    if plan.action == "refuse":
        return Answer(question, NO_ANSWER, [], context, grounded=False)
    if plan.action == "quote":
        return finish_answer(question, context, plan.blocks, plan.text, usage, plan.support, repair=False)
    if plan.action == "generate":
        reply = tidy_reply(reply, truncated=usage.get("completion_tokens", 0) >= plan.max_tokens)
        sources = plan.sources or plan.blocks
        problems = reply_problems(question, reply, [(b.title, b.header() + "\n" + b.text) for b in sources])
        context.info.update(problems)  # shown as evidence in auto mode: what the model said is not an answer
        said = not is_refusal(reply) and not problems
        quotes = plan.follow_up(reply) if said and plan.follow_up else NO_ANSWER
        # the documents' own words after a paraphrase; after an overview, the graph's parts of its kind
        tail = "\n\n".join(t for t in (documents_tail(quotes), plan.note if said else "") if t)
        if said or is_refusal(plan.evidence):  # an answer, or no evidence to show instead
            return finish_answer(question, context, plan.blocks, reply, usage, tail=tail, sources=sources)
        context.info.update(answer_path="evidence", set_aside_reply=reply)  # shown in --json: what the model said
    lead = plan.lead or evidence_lead(question, plan.evidence)
    text = "\n\n".join(t for t in (f"{lead} {plan.evidence}", plan.note) if t)  # an overview's graph rows either way
    return Answer(question, text, make_citations(text, plan.sources or plan.blocks), context, grounded=False,
                  usage=usage)


def generate_answer(
    llm: LLM, question: str, context: Context, *, max_tokens: int = 256, min_coverage: float = MIN_QUESTION_COVERAGE,
    mode: str = "generative", focus_tokens: int = 0, embedder: Embedder | None = None, min_relevance: float = 0.0,
    passages: int = 0,
) -> Answer:
    """Answer from the context only: a refusal (no LLM) when it misses the question, a quote when the facts are
    explicit (`mode` extractive/auto), else the LLM over the focused (`focus_tokens` > 0) or full context."""
    start = time.perf_counter()
    plan = plan_answer(question, context, mode=mode, focus_tokens=focus_tokens, min_coverage=min_coverage,
                       embedder=embedder, max_tokens=max_tokens, min_relevance=min_relevance, passages=passages)
    if plan.action != "generate":
        answer = finish_plan(question, context, plan)
    else:
        completion = llm.complete(answer_messages(plan.asked or question, plan.blocks, focus_tokens > 0), max_tokens=plan.max_tokens)
        usage = {"prompt_tokens": completion.usage.prompt_tokens, "completion_tokens": completion.usage.completion_tokens}
        answer = finish_plan(question, context, plan, completion.text, usage)
    answer.timings = {**context.timings, "generate_s": time.perf_counter() - start}
    return answer


def block_payload(blocks: list[Block]) -> list[dict[str, Any]]:
    return [{"n": b.n, "header": b.header(), "text": b.text, "chunk_id": b.chunk_id, "source": b.source} for b in blocks]


def stream_answer(
    llm: LLM, question: str, context: Context, *, max_tokens: int = 256, min_coverage: float = MIN_QUESTION_COVERAGE,
    mode: str = "generative", focus_tokens: int = 0, embedder: Embedder | None = None, min_relevance: float = 0.0,
    passages: int = 0,
) -> Iterator[dict[str, Any]]:
    """Events: one `sources` (the numbered blocks the answer cites), `token` pieces, then `done` with the answer."""
    plan = plan_answer(question, context, mode=mode, focus_tokens=focus_tokens, min_coverage=min_coverage,
                       embedder=embedder, max_tokens=max_tokens, min_relevance=min_relevance, passages=passages)
    yield {"event": "sources", "data": block_payload(plan.sources or plan.blocks)}  # quotes may cite past the focus
    if plan.action != "generate":
        answer = finish_plan(question, context, plan)
        yield {"event": "token", "data": answer.text}
        yield {"event": "done", "data": answer.to_dict()}
        return
    pieces: list[str] = []
    stream = llm.stream(answer_messages(plan.asked or question, plan.blocks, focus_tokens > 0), max_tokens=plan.max_tokens)
    try:
        for piece in stream:
            pieces.append(piece)
            yield {"event": "token", "data": piece}
            if any(c in piece for c in ".!?]") and loops("".join(pieces)):
                break  # the model repeats itself: the rest would be removed, stop generating it
    finally:
        getattr(stream, "close", lambda: None)()  # a generator releases the model now, not when collected
    usage = {"completion_tokens": len(pieces)}  # a piece is at most one token: the limit was hit if as many came
    yield {"event": "done", "data": finish_plan(question, context, plan, "".join(pieces), usage).to_dict()}


def answer_options(settings: Settings, mode: str | None = None) -> dict[str, Any]:
    """Keyword arguments of generate_answer/stream_answer from the settings (`mode` overrides [answer] mode).

    The focused context is used with local models (focus = "auto") or always/never (on/off); strong remote
    models get the full context by default.
    """
    a = settings.answer
    focus = a.focus.strip().lower()
    if focus not in ("auto", "on", "off"):
        raise ConfigError(f"[answer] focus = {a.focus!r}: use auto, on or off")
    focused = focus == "on" or (focus == "auto" and settings.llm.provider.strip().lower() != "openai")
    chosen = (mode or a.mode).strip().lower()
    return {
        "mode": chosen,
        "focus_tokens": a.focus_tokens if focused else 0,
        "passages": a.passages if focused and chosen == "auto" else 0,
        "max_tokens": min(a.focus_max_tokens, settings.llm.max_answer_tokens) if focused else settings.llm.max_answer_tokens,
        "min_coverage": settings.retrieval.min_question_coverage,
        # the threshold is on the bundled MiniLM's cosine scale; other embedders score differently: off unless set
        "min_relevance": a.min_relevance if a.min_relevance >= 0 else (
            MIN_RELEVANCE if settings.embedder.provider.strip().lower() == "minilm" else 0.0),
    }
