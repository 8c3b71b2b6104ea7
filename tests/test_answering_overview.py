"""Overview questions ("Summarize the wireless features of the A"): the aspect in the documents' words, and more of
the product's rows after a small model's answer, cited wherever they are."""

from __future__ import annotations

from kgrag.answer import generate_answer, stream_answer
from kgrag.answering.asks import asks_overview
from kgrag.answering.aspects import aspect_terms, label_terms, with_aspect_words
from kgrag.answering.select import focus_units
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem

INTRO = ("The Zephyr Air is a compact board for connected projects in homes and offices. It brings wireless "
         "capabilities to classic sketches. Its small size fits any enclosure.")
RADIO_TABLE = ("Wi-Fi | 802.11b/g/n, 2.4 GHz, up to 150 Mbps\nBluetooth | Bluetooth 5.0 LE, +8 dBm transmit power\n"
               "Antenna | On-board PCB antenna with a U.FL connector for an external antenna\n"
               "Secure element | QX508 crypto chip storing up to 16 keys")
POWER = "Input voltage | 5 V via USB-C\nBattery | single-cell Li-Po with an on-board charger"
OTHER = "The Zephyr Ground has no radio. Wi-Fi | not available\nBluetooth | not available"


def _item(text: str, cid: str, title: str, section: str) -> ContextItem:
    source = {"path": f"{cid}.pdf", "title": title, "page_start": 2, "page_end": 2, "section": section}
    return ContextItem("chunk", text, 0.5, cid, f"d-{cid}", source)


def _context(question: str) -> Context:
    items = [_item(INTRO, "c1", "Zephyr Air", "1 Introduction"), _item(POWER, "c2", "Zephyr Air", "3 Power"),
             _item(RADIO_TABLE, "c3", "Zephyr Air", "2 Connectivity"), _item(OTHER, "c4", "Zephyr Ground", "2 Features")]
    return Context(question=question, strategy="test", items=items, tokens=300, budget=2000)


def test_an_overview_aspect_brings_the_words_datasheets_write_for_it() -> None:
    assert asks_overview("Summarize the wireless capabilities of the A.") and asks_overview("Describe the power tree.")
    assert not asks_overview("Which wireless module does the A use?")
    assert asks_overview("What are the main features of the A?") and asks_overview("List the key specs of the A.")
    assert not asks_overview("What is the main processor of the A?")  # one fact
    terms = aspect_terms("Summarize the wireless and security capabilities of the A.")
    assert {"wi-fi", "bluetooth", "lora", "crypto", "secure"} <= set(terms)
    assert "wireless" not in terms  # the question's own words are scored anyway
    assert aspect_terms("Which wireless module does the A use?") == []  # one fact asked: its own words decide
    assert aspect_terms("Summarize what the A provides.") == []  # no aspect named
    assert with_aspect_words("wireless A", "Summarize the wireless capabilities of the A.").startswith("wireless A wi-fi ")
    assert with_aspect_words("wireless module A", "Which wireless module does the A use?") == "wireless module A"


def test_a_list_of_a_kind_of_part_is_an_overview_however_the_product_is_typed() -> None:
    assert asks_overview("What sensors does the Zephyr Air have?")
    assert asks_overview("what sensors does the zephyr air robot have?")  # a name typed in lower case
    assert not asks_overview("what sensors does it use for the reading?")  # no product named: one part asked


def test_the_rows_of_an_overview_aspect_rank_above_a_sentence_that_only_says_its_name() -> None:
    question = "Summarize the wireless capabilities of the Zephyr Air."
    context = _context(question)
    texts = {i: item.text for i, item in enumerate(context.items, 1)}
    scopes = {i: item.source["title"] + " " + item.source["section"] for i, item in enumerate(context.items, 1)}
    ranked = focus_units(question, texts, scopes, 60).ranked
    wifi = next(i for i, s in enumerate(ranked) if s.unit.text.startswith("Wi-Fi | 802.11"))
    size = next(i for i, s in enumerate(ranked) if s.unit.text.startswith("Its small size"))
    assert wifi < size


def test_a_small_models_overview_is_followed_by_more_rows_cited_even_outside_its_focus() -> None:
    question = "Summarize the wireless capabilities of the Zephyr Air."
    reply = "The Zephyr Air brings wireless capabilities to classic sketches [1]."
    answer = generate_answer(FakeLLM(replies=[reply]), question, _context(question), mode="auto", focus_tokens=40,
                             passages=2)
    head, _, quotes = answer.text.partition("\n\nFrom the documents: ")
    assert head == reply and answer.grounded
    for row in ("802.11b/g/n", "Bluetooth 5.0 LE", "U.FL connector"):  # more than two passages, in the rows' words
        assert row in quotes
    assert "Zephyr Ground" not in quotes and "not available" not in quotes  # another product's rows stay out
    assert 3 in {c.n for c in answer.citations}  # the table's [3] resolves, though the model saw only part of it
    one_fact = generate_answer(FakeLLM(replies=["The Zephyr Air uses 802.11b/g/n Wi-Fi [3]."]),
                               "Which Wi-Fi standard does the Zephyr Air use?",
                               _context("Which Wi-Fi standard does the Zephyr Air use?"), mode="auto", focus_tokens=40,
                               passages=2)
    assert one_fact.context.info["answer_path"] == "focused"  # the model's answer stands, passages follow it
    assert one_fact.text.count(" [") <= 3  # a one-fact question keeps the two passages


def test_an_overview_naming_no_aspect_is_followed_by_passages_that_do_not_write_its_words() -> None:
    """"Summarise what the Zephyr Air provides": only passages holding "provide" had followed the model's answer."""
    from kgrag.answering.aspects import asks_whole

    question = "Summarise what the Zephyr Air provides."
    answer = generate_answer(FakeLLM(replies=["The Zephyr Air is a compact board [1]."]), question, _context(question),
                             mode="auto", focus_tokens=60, passages=2)
    _, _, quotes = answer.text.partition("\n\nFrom the documents: ")
    assert "802.11b/g/n" in quotes or "5 V via USB-C" in quotes
    assert asks_whole(question, {"summarise", "provide"}) and asks_whole("Describe the A.", {"describe"})
    assert not asks_whole("Summarize the wireless capabilities of the A.", {"summarize", "wireless", "capabilitie"})
    assert not asks_whole("What does the A provide?", {"provide"})  # one fact asked, not an overview


def test_a_streamed_answer_lists_every_source_its_quotes_may_cite() -> None:
    question = "Summarize the wireless capabilities of the Zephyr Air."
    events = list(stream_answer(FakeLLM(replies=["It has Wi-Fi [3]."]), question, _context(question), mode="auto",
                                focus_tokens=40, passages=2))
    assert [b["n"] for b in events[0]["data"]] == [1, 2, 3, 4]


def test_a_documents_own_reference_mark_in_a_quote_is_no_citation() -> None:
    """"… install the Arduino Desktop IDE [1]" is the datasheet's footnote, not our source [1]: the quote drops it and
    cites only where it comes from."""
    question = "Summarize the wireless capabilities of the Zephyr Air."
    context = _context(question)
    context.items[2] = _item(RADIO_TABLE + "\nTo update the radio firmware, install the Zephyr IDE [1] first.", "c3",
                             "Zephyr Air", "2 Connectivity")
    answer = generate_answer(FakeLLM(replies=["The Zephyr Air has Wi-Fi [3]."]), question, context, mode="auto",
                             focus_tokens=40, passages=2)
    assert "install the Zephyr IDE first [3]." in answer.text  # quoted, cited where it is


FEATURES = ("Peripherals\n12 channel DMA\n6x SERCOM (USART, I2C, SPI)\n\n"
            "Wi-Fi\nIEEE 802.11b up to 11Mbit\nIEEE 802.11n up to 72MBit\n2.4 GHz, 13 channels\n-96 dBm sensitivity")


def test_an_overview_quotes_the_spec_list_labelled_by_its_aspect_whole() -> None:
    """A datasheet's feature list ("Wi-Fi" then one value per line) never says "wireless": its lines rank low, and
    one line alone ("2.4 GHz, 13 channels") says little. An overview of the aspect quotes the labelled list whole."""
    question = "Summarize the wireless connectivity of the Zephyr Air."
    items = [_item(INTRO, "c1", "Zephyr Air", "1 Introduction"), _item(POWER, "c2", "Zephyr Air", "3 Power"),
             _item(FEATURES, "c3", "Zephyr Air", "Features")]
    context = Context(question=question, strategy="test", items=items, tokens=300, budget=2000)
    answer = generate_answer(FakeLLM(replies=["The Zephyr Air brings wireless capabilities to sketches [1]."]),
                             question, context, mode="auto", focus_tokens=40, passages=2)
    _, _, quotes = answer.text.partition("\n\nFrom the documents: ")
    assert ("Wi-Fi: IEEE 802.11b up to 11Mbit; IEEE 802.11n up to 72MBit; 2.4 GHz, 13 channels; -96 dBm sensitivity [3]"
            in quotes)
    assert "12 channel DMA" not in quotes  # the list under another label stays out
    texts = {i: item.text for i, item in enumerate(items, 1)}
    scopes = {i: item.source["title"] + " " + item.source["section"] for i, item in enumerate(items, 1)}
    ranked = [s.unit.text for s in focus_units(question, texts, scopes, 60).ranked]
    says_word = next(t for t in ranked if t.startswith("It brings wireless capabilities"))
    assert ranked.index("2.4 GHz, 13 channels") < ranked.index(says_word)  # the model reads the list first too


def test_any_quote_of_a_labelled_list_line_carries_its_label_and_list() -> None:
    """"Up to 550mA output current (recommended max 200mA)" alone does not say which rail; under its label
    "AP2112K-3.3 (LDO)" with the list's other lines it does. A label that is a paragraph of prose is left off."""
    from kgrag.answering.quotes import quote_answer

    ldo = ("AP2112K-3.3 (LDO)\nRegulates input voltage from 5V to 3.3V\n"
           "Up to 550mA output current for user application (recommended max 200mA)")
    prose = ("The sensor is the QX236 from a known vendor, here you can find the datasheet of the component, look for the "
             "QX236 and not the QX235. Here you can see its main characteristics:\n400 mV at 0 °C\n-10 °C to 125 °C")
    texts, scopes = {1: ldo, 2: prose}, {1: "Zephyr Air", 2: "Zephyr Air"}
    ranked = focus_units("How much current can the 3.3V pin of the Zephyr Air supply?", texts, scopes, 60).ranked
    top = next(s for s in ranked if s.unit.text.startswith("Up to 550mA"))
    assert quote_answer([top], n=1, pool=ranked) == (
        "AP2112K-3.3 (LDO): Regulates input voltage from 5V to 3.3V; Up to 550mA output current for user application "
        "(recommended max 200mA) [1].")
    ranked = focus_units("What does the Zephyr Air sensor output at 0 °C?", texts, scopes, 60).ranked
    line = next(s for s in ranked if s.unit.text == "400 mV at 0 °C")
    assert quote_answer([line], n=1, pool=ranked) == "400 mV at 0 °C; -10 °C to 125 °C [2]."


def test_a_passage_pointing_to_a_figure_table_or_link_is_no_quote() -> None:
    """"… is illustrated in the figure below" and "Link: https://…" say nothing without what they point to; a row
    stating a value under a pointing caption still does."""
    from kgrag.answering.quotes import points_elsewhere, quote_answer

    text = ("An overview of the Zephyr Tag high-level architecture is illustrated in the figure below.\n"
            "The table below summarizes the power consumption of the Zephyr Tag in different test cases.\n"
            "No.: 4; Reference: Zephyr Tag Documentation; Link: https://docs.example.com/zephyr-tag\n"
            "The Zephyr Tag measures 38 mm x 38 mm and runs from a CR2032 coin cell battery.")
    ranked = focus_units("Summarize the hardware of the Zephyr Tag.", {1: text}, {1: "Zephyr Tag"}, 200).ranked
    quoted = quote_answer(ranked, n=4)
    assert "38 mm x 38 mm" in quoted and "figure below" not in quoted and "table below" not in quoted
    assert "https://" not in quoted
    assert points_elsewhere("The power tree of the node can be consulted below:")
    assert not points_elsewhere("The current drawn is shown below: 24 mA active, 4 mA idle.")  # it states values


def test_a_passage_pointing_to_other_documents_is_no_quote() -> None:
    """"Please refer to its corresponding documentation", "REFER TO THE DATA SHEET …, CONTACT YOUR SUPPLIER": a
    pointer to another document says nothing of the product; a sentence that refers to a value does."""
    from kgrag.answering.quotes import points_elsewhere

    assert points_elsewhere("For detailed information about the Zephyr Tag, please refer to its corresponding "
                            "documentation available on the Zephyr Docs site.")
    assert points_elsewhere("REFER TO THE DATA SHEET AND USER DOCUMENTATION FOR INFORMATION ON USE. FOR THE LATEST "
                            "PRODUCT INFORMATION, CONTACT YOUR SUPPLIER.")
    assert points_elsewhere("Firmware updates can be found on the product page of the Zephyr Tag.")
    assert not points_elsewhere("Refer to the manual: the Zephyr Tag runs for 14 days on a CR2032 cell.")
    assert not points_elsewhere("The Zephyr Tag sends its readings to the gateway every 10 s.")


def test_the_closest_passages_of_a_question_setting_two_products_side_by_side_show_both() -> None:
    """"The Zephyr Air or the Zephyr Pro?": the better-scored product's passages would fill every quote; each one's
    best quotable passage comes first."""
    from kgrag.answering.quotes import sides_first
    from kgrag.answering.terms import analyse

    air = ("The Zephyr Air runs from a 3.7 V LiPo cell through its JST connector.\n"
           "The Zephyr Air charges its cell at up to 500 mA from USB-C.\n"
           "The Zephyr Air sleeps at 12 uA with the radio off.")
    pro = "The Zephyr Pro takes 9 to 24 V on its screw terminals and has no battery connector."
    question = "Which one runs from a battery, the Zephyr Air or the Zephyr Pro?"
    titles = {1: "Zephyr Air", 2: "Zephyr Pro"}
    ranked = focus_units(question, {1: air, 2: pro}, titles, 200).ranked
    first = sides_first(analyse(question), ranked, titles)[:2]
    assert {s.unit.block for s in first} == {1, 2}
    one = analyse("Which Zephyr runs from a battery?")
    assert sides_first(one, ranked, titles) == ranked  # no two products side by side: the ranking as it is


def test_the_closest_passages_of_a_question_about_one_product_show_its_own_first() -> None:
    """"max current per I/O pin of the Zephyr Mini": a sibling's row carries every asked word and outscores the Mini's
    own lines, which do not state it; quoted first, "The documents say:" would lead another product's value."""
    from kgrag.answering.quotes import sides_first
    from kgrag.answering.terms import analyse

    mini = ("The Zephyr Mini is a small board with an 8-bit processor.\n"
            "Its regulator gives up to 550 mA output current for user application.")
    maxi = "Zephyr Max | DC current per I/O pin | 7 mA"
    hub = "The max current per I/O pin of the hub is 12 mA."  # another document, naming no product asked
    question = "What is the max current per I/O pin of the Zephyr Mini?"
    titles = {1: "Zephyr Mini", 2: "Zephyr Max", 3: "Acme Hub"}
    ranked = focus_units(question, {1: mini, 2: maxi, 3: hub}, titles, 200, titles=titles).ranked
    assert {ranked[0].unit.block, ranked[1].unit.block} == {2, 3}  # the sibling's row and the hub score best
    ordered = sides_first(analyse(question), ranked, titles)
    assert [s.unit.block for s in ordered][:2] == [1, 1]
    two = analyse("Is the max current per I/O pin of the Zephyr Mini the same as the Zephyr Max's?")
    assert sides_first(two, ranked, titles) == ranked  # both named: no product's passages are another's


def test_a_users_word_for_a_spec_brings_the_label_datasheets_give_it() -> None:
    """"ingress protection" is the row "Degree of protection | IP67"; "reliability" is "MTBF"; a question that only
    says "reliably" or asks "how big" a part is gets no label words."""
    assert {"degree", "protection", "ip"} >= set(label_terms("What ingress protection does the Zephyr Air have?"))
    assert "degree" in label_terms("What ingress protection does the Zephyr Air have?")
    assert label_terms("What reliability figure is quoted for the Zephyr Air?") == ["mtbf"]
    assert label_terms("How cold can the Zephyr Air run?") == ["operating", "temperature"]
    assert label_terms("Does the Zephyr Air read 12 V inputs reliably?") == []
    assert label_terms("How big is the prototyping area of the Zephyr Air?") == []
    assert label_terms("What is the clock speed of the Zephyr Air?") == ["processor", "mhz"]  # "running at 48 MHz"
    question = "What ingress protection does the Zephyr Air have?"
    texts = {1: "Parameter | Value\nDegree of protection | IP67\nWeight | 40 g",
             2: "The Zephyr Air enclosure protects the board from accidental contact during installation."}
    scopes = {1: "Zephyr Air 6 Environmental", 2: "Zephyr Air 1 Installation"}
    ranked = focus_units(question, texts, scopes, 60).ranked
    assert ranked[0].unit.text.startswith("Degree of protection | IP67")


def test_a_users_words_for_an_overview_ask_one() -> None:
    """"Give me a rundown of …" or "the short version" asks for an overview as "Summarize …" does; a question that
    only mentions a run or a version does not."""
    for question in ("Give me a quick rundown of the I/O on the Zephyr Air.", "What's inside the Zephyr Air? The "
                     "short version, please.", "In a nutshell, what can the Zephyr Air do?",
                     "What are the headline specs of the Zephyr Air?",
                     "What does the Zephyr Air (ZX031) give me for prototyping and debugging?",
                     "What's on the Zephyr Air that would help with solderless setups?",
                     "A collector asks what's actually inside the Zephyr Air compared to a normal Zephyr."):
        assert asks_overview(question), question
    for question in ("How long does the Zephyr Air run down its battery in sleep?", "Which firmware version does the "
                     "Zephyr Air ship with?", "What voltage does the Zephyr Air provide?", "What is on pin D13?"):
        assert not asks_overview(question), question


def test_every_part_of_a_kind_asked_of_a_named_product_is_an_overview() -> None:
    """"What sensors does the Zephyr Air have?" asks for the list of its sensors, not one fact; a singular kind or a
    kind asked of a part the question describes ("that chip") asks one thing."""
    for question in ("What sensors does the Zephyr Air have onboard?", "What connectors and features does the Zephyr "
                     "Air provide?", "What sensors are on the Zephyr Air, and what does each one measure?"):
        assert asks_overview(question), question
    for question in ("What sensor does the Zephyr Air use for distance?", "What pins does the Zephyr Air use for I2C?",
                     "Which chip reads the IMU, and what cores does that chip contain?"):
        assert not asks_overview(question), question


def test_an_overview_is_not_answered_by_one_value_quoted() -> None:
    """"Give me a rundown of the power input of the Zephyr Air" asks for its rows, not the one row stating a value that
    an extractive quote would give: the model's answer and the aspect's rows follow. Named items still get a quote
    each ("… specs: range and supply voltage", see test_features_list)."""
    question = "Can you give me a rundown of the power input of the Zephyr Air?"
    reply = "The Zephyr Air takes 5 V over USB-C or a Li-Po battery [2]."
    answer = generate_answer(FakeLLM(replies=[reply]), question, _context(question), mode="auto", focus_tokens=60,
                             passages=2)
    assert answer.context.info["answer_path"] == "focused", answer.context.info
    assert answer.text.startswith(reply)
