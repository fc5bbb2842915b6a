"""What a figure question asks for: line items, periods, the statement it names and the unit.

"What is the FY2018 capital expenditure amount (in USD millions) for 3M? ... cash flow statement."
-> capital expenditure, FY2018, cash_flow, 1e6. Periods are read with the same patterns as table
headers (`vera_core.tables.periods`), so "FY2018", "year end FY2018", "as of December 31, 2022",
"Q1 2023" and "FY2023Q1" land on the same `Period` fields a column carries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from vera_core.finance.dates import ENDED, MONTH_QUARTER, month_number, quarter_number
from vera_core.finance.line_items import (NON_GAAP, TABLE_NAMED, Concept, asks_non_gaap, concepts_in, expand_abbreviations,
                                          label_terms)
from vera_core.records import Period
from vera_core.tables.periods import (DATE_DMY, DATE_MDY, DURATION, FISCAL_YEAR, QUARTER, YEAR,
                                      _full_year, _months, dates_in)
from vera_core.finance.statements import named_statement
from vera_core.questions.qualifiers import Qualifier, qualifier_around
from vera_core.questions.reconciling import reconciling_item

UNIT_ASKED = re.compile(r"\b(?:in|as)\s+(?:(?:USD|US\$|\$|EUR|GBP|dollars|euros)\s*)?(?:in\s+)?"
                        r"(?P<scale>thousands|millions|billions)\b|(?:\bUSD|\bEUR|\bGBP|\$)\s*(?P<scale2>thousands|millions|"
                        r"billions)\b|\b(?:thousands|millions|billions)\s+of\s+(?:dollars|euros)\b|"
                        r"(?:^|(?<=[.?!;]\s)|(?<=\())(?:thousands|millions|billions)(?=(?:,?\s+please)?\s*(?:[.?!)]|$))", re.I)
"""The scale an amount is asked in: "in $ millions", "USD billions", "thousands of dollars", "... ? Millions, please."."""
PERCENT_ASKED = re.compile(r"\b(?:as\s+a\s+)?percent(?:age)?\b|\bin\s+%|\bunits\s+of\s+percents?\b", re.I)
# NOTE: "the shares used in its EPS calculation" asks a printed input of the company's calculation, not one of VERA's
METRIC_CUE = re.compile(
    r"\bratios?\b|\bmargins?\b|\bdefined\s+as\b|\bdefine\b|(?<!EPS\s)\bcalculat\w*|\bcompute\w*|\bgrowth\b|\bgrew\b|"
    r"\bchanged?\b|\bchanges\b|\bincrease[sd]?\b|\bdecrease[sd]?\b|(?<!weighted\s)(?<!weighted-)\baverage\b(?!\s+revenue\s+per\b)|"
    r"\bturnover\b|\bdays\b|"
    r"\bless\b|\bminus\b|\bdivided\b|\bdivide\s+(?:it\s+|that\s+|them\s+)?by\b|\bEBITDA\b|\bfree\s+cash\s+flow\b|\bdrove\b|\bwhy\b|\bexplain\b|"
    r"\bimprov\w*|\bdifference\b|\bCAGR\b|\bas\s+a\s+%\s+of\b|\bper\s+cent\s+of\b|\bshare\s+of\b|\bcompared?\b|"
    r"\bpercent(?:age)?\s+of\b|"
    r"\bvs\.?\b|\bversus\b|\btrend\b|\bbetween\b|\bgrow\w*|\byoy\b|\by/y\b|\byear[\s-]over[\s-]year\b|"
    r"\b(?:doubled?|tripled?|halved?)\b|\b(?:lower|higher|greater|smaller|bigger|larger)\b[^?]{0,80}?\bthan\b", re.I)
ASKS_FIGURE = re.compile(r"\b(?:can\s+you\s+|please\s+)?(?:find|pull|fetch|grab|look\s+up)\b(?!\s+(?:out\s+)?(?:why|how|where))|\bhow\s+many\b(?!\s+(?:times|x)\b)|"
                         r"\b(?:we|i)\s+need\b|\b(?:what\s+(?:is|was|were|are)|what'?s|how\s+(?:much|large|big)|quantity|amount|figure|value|report(?:ed)?|"
                         r"state|give|provide)\b|\bwhat\s+(?:[\w-]+\s+){0,4}?(?:does|do|did)\s+(?:the\s+|its\s+)?[\w\s'\u2019-]{2,60}?\s+(?:show|print)\s+"
                         r"(?:for|as)\b|"
                         r"\bwhat\s+(?:[\w-]+\s+){1,3}did\s+.{2,40}?\s+(?:book|post|record|generate|"
                         r"earn|log|bring\s+in)\b|"
                         # NOTE: "what did the Communications business make in non-GAAP operating income?"
                         r"\bwhat\s+did\s+.{2,60}?\s+(?:make|earn|generate|bring\s+in|book|post|record|log)\s+in\s+"
                         r"(?!(?:the\s+)?(?:(?:first|second|third|fourth|last|latest|most\s+recent)\s+)?(?:quarter|year|period|fiscal|FY|Q[1-4]|"
                         r"[1-4]Q|(?:19|20)\d\d)\b)", re.I)
YES_NO_CLAUSE = re.compile(r"(?:^|[,.:;?!]\s+)(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should)\b"
                           r"(?!\s+(?:you|u)\s+(?:please\s+|kindly\s+|quickly\s+|also\s+)?(?:find|give|tell|pull|get|show|provide|list|share|"
                           r"send|look\s+up|fetch|grab|let\s+me\s+know|help\s+me|check|confirm|work\s+out|calculate|compute)\b)", re.I)
"""A clause that asks yes or no: at the start of the question, or after a clause that sets it up ("For Sonic
Automotive, did diluted EPS fall ...")."""
SCALE_OF = {"thousands": 1e3, "millions": 1e6, "billions": 1e9}


@dataclass(frozen=True)
class FigureRequest:
    """One figure question, resolved into what to look up."""

    concepts: tuple[Concept, ...]
    """Known line items the question names, in order."""
    item_terms: frozenset[str]
    """The question's own words for the item when it names no known concept."""
    periods: tuple[Period, ...]
    """Periods asked, in order (empty: the latest the statements show)."""
    period_texts: tuple[str, ...]
    """Each period as the question words it ("FY2018")."""
    scale: float | None
    """The unit asked: 1e3, 1e6, 1e9; None when not asked."""
    percent: bool
    """The question asks for a percentage."""
    statement: str
    """The statement the question names (`cash_flow`, `balance`, `income`...), or ''."""
    question_terms: frozenset[str] = frozenset()
    """Every normalised word of the question (a row it names, e.g. a segment, qualifies the item)."""
    non_gaap: bool = False
    """The question names an adjusted measure ("non-GAAP EPS", "core earnings"): only rows or columns
    the filing labels so answer it, and no GAAP row does."""
    qualifier: Qualifier = Qualifier()
    """Words the question puts on the item that make it another line ("automotive revenues", "the Data
    Center and AI segment's revenue"): only a row, table or column carrying them answers it."""
    per_share: bool = False
    """The question asks an amount per share ("FFO per share"): a total never answers it."""
    forward: bool = False
    """The question asks for guidance, an outlook or a forecast: only a table or row that says so answers
    it, never the figures reported."""
    quoted: tuple[frozenset[str], ...] = ()
    """The words of each phrase the question puts in quotation marks ("the non-GAAP 'revenue excluding foreign
    exchange effect'"): a row printing one of them word for word is the line asked, whatever else it qualifies."""
    named_exclusion: frozenset[str] = frozenset()
    """The words of the item with what the question leaves out of it, when a measure may be printed by that name
    ("revenue excluding the foreign exchange effect"): a row printing them all and no other is the line asked."""
    reconciling: bool = False
    """The item is a line reconciling a GAAP measure to its adjusted one ("the restructuring add-back"): only a row of a
    reconciliation answers it (`questions.reconciling`)."""


PER_SHARE_ASKED = re.compile(r"\bper\s+(?:diluted\s+|basic\s+|common\s+|weighted\s+)?share\b|\bEPS\b", re.I)
FORWARD_ASKED = re.compile(r"\b(?:guidance|outlook|forecast\w*|projection\w*|projected|expects?|expected|target(?:ed|s)?)\b",
                           re.I)
"""Words that ask for a figure management expects, not one it reported."""


_MEASURE = re.compile(r"(?P<m>(?:non-?\s?GAAP|adjusted|core)\s+[\w\s&'-]{2,60}?)\s*(?:\b(?:for|in|of|during|from|"
                      r"as\s+of|per|according)\b|\(|\?|,|$)", re.I)
"""The adjusted measure a question names, up to the period or the source ("non-GAAP core earnings for ...")."""


_SHORT_UNIT = re.compile(r"(?:\$|\bUSD\s?)(?P<s>mm|mn|m|bn|b|k)\b|\(\s*\$\s*(?P<s2>mm|mn|m|bn|b|k)\s*\)", re.I)
"""An analyst's shorthand for the unit: "$M", "($mm)", "USD bn"."""
_SHORT_SCALE = {"mm": 1e6, "mn": 1e6, "m": 1e6, "bn": 1e9, "b": 1e9, "k": 1e3}
_ASKING_WORD = re.compile(r"\b(?:what|which|how|why|where|who|when|whom|describe|explain|list|summari[sz]e|discuss|tell|"
                          r"show|outline|identify)\b", re.I)
_SOURCE_LEAD = re.compile(r"^\s*(?:according\s+to|per|from|in|using|based\s+on)\s+[^,?]{2,80}?\b(?:presentation|deck|"
                          r"release|slides?|transcript|call|report|10-[KQ]|filing|statements?)\s*,\s*", re.I)
"""The document a question reads from, said first ("According to Meta's Q1 2024 earnings presentation, how many ...")."""
_FRAME = re.compile(r"^\s*(?:(?:could|would|can|will)\s+(?:you|u)\s+(?:please\s+|kindly\s+)?|please\s+)?"
                    r"(?:(?:let\s+me\s+know|tell\s+me|find\s+out|check|confirm|help\s+me\s+(?:understand|find))\s+)?"
                    r"(?:(?:what|how\s+(?:much|large|big))\s+(?:is|was|were|are|did|does)\s+(?:the\s+)?|"
                    r"how\s+much\s+(?:money\s+)?|how\s+many\s+|I\s+(?:need|want)\s+(?:the\s+)?|what\s+(?:total\s+)?(?=\w)|per\s+|from\s+|according\s+to\s+|in\s+)", re.I)
LABEL_FIRST = re.compile(r"^[^:?]{2,60}:\s+(?=\S)|^[^?]{2,60}?\s+[-\u2013\u2014]\s+(?=\S)")
"""A label or persona before the question ("Enact 10-K 2022, Key Metrics table: ", "I'm a REIT analyst - ")."""
_NOT_ITEM = re.compile(r"\([^()]*\)|\b(?:in|as)\s+(?:(?:USD|US\$|\$|dollars)\s*)?(?:thousands|millions|billions)"
                       r"(?:\s+of\s+dollars)?\b|\brounded\b.*$|\bround\w*\b.*$|\b(?:did|does|do)\s+.*?\b(?:report|"
                       r"generate|record|earn|have|post)\w*\b|\b(?:report|generate|record|post)(?:ed|s)?\b|"
                       r"\b(?:(?:charged|recorded|recogni[sz]ed|booked|shown|reported)\s+(?:to|in|on)|according\s+to|on|in|from|per)\s+(?:the\s+|its\s+)?"
                       r"(?:consolidated\s+)?(?:balance\s+sheet|income\s+statement|"
                       r"(?:statements?|statement)\s+of\s+[\w\s]+?|cash\s+flow\s+statement|P&L|10-[KQ])\b|\b(?:the\s+)?year\s+"
                       r"ended\b|\bas\s+of\b|\bfiscal\b|\bfull[\s-]year\b|\bthe\s+company\b", re.I)
"""What a question says around a line item that is not the item: units, rounding, its verb, the
statement it is on, the words of its period."""


_NUMERIC_DATE = re.compile(r"\b(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>(?:19|20)?\d\d)\b")


_SPEND = re.compile(r"\b(?:did|does|do)\s+.{1,60}?\s+(?:spend|spent|pay|paid|incur|invest)\s+(?:on|in|for)\b|"
                    # NOTE: "How much money did Costco take in from membership fees": what the money came from
                    r"\b(?:did|does|do)\s+.{1,60}?\s+(?:take|bring|rake|pull)\s+in\s+from\b|"
                    r"\b(?:spending|spent|paid|expenditures?)\s+on\b|"
                    # NOTE: "how much did it collect in membership fees": what the money came from
                    r"\b(?:did|does|do)\s+.{1,60}?\s+(?:collect|receive|earn|book)\s+(?:in|from)\b|"
                    # NOTE: "cash paid for interest" without a verb is the line ("Cash paid for interest, net of ...")
                    r"\bcash\s+(?:went\s+out|was\s+(?:paid|spent|used))\s+(?:on|for|in)\b", re.I)
"""'How much did American Express spend on Card Member rewards', 'how much cash went out for dividends': the item
is what was spent on."""
_NAMED_AS = re.compile(r"(?<=[a-z])\s+\((?P<name>[A-Za-z][A-Za-z&,' -]{2,60})\)")
"""'spend on labor (compensation and benefits)': the words in parentheses after the item are the line as printed."""
_INSTRUCTION_WORDS = re.compile(r"\b(?:thousands?|millions?|billions?|percent(?:age)?|decimals?|dp|round\w*|usd|dollars?|"
                                r"units?|per\s+share|in|as|from|per|statement|balance|sheet|income|cash\s+flow|gaap|"
                                r"ttm|ltm|ticker|i\.?e|e\.?g|incl\w*|excl\w*|net\s+of)\b", re.I)


_WANT = re.compile(r"^\s*(?:I['\u2019]?m\s+(?:after|looking\s+for)|I\s+(?:need|want)|what\s+I\s+(?:need|want)\s+is)\s+(?:the\s+)?"
                   r"(?=[^.?!]{3,80}\b(?:figure|number|line|amount)\b)", re.I)
"""A sentence that says which line is wanted, after a question put in everyday words ("I'm after the daily active people
figure for the quarter that ended September 30, 2025")."""
_WANTED_WORD = re.compile(r"\s+(?:figure|number|amount)$", re.I)
"""The word that closes a line wanted ("the daily active people figure"): no word of the line."""
_CAME_TO = re.compile(r"\b(?:come|came|comes|amount(?:ed|s)?|add(?:ed|s)?\s+up)\s+to\b\s*$", re.I)
"""A verb that closes the item asked ("what did membership fees come to"): no word of it."""


def item_phrase(question: str) -> str:
    """The line item a question names in its own words ("What was BCB Bancorp's net interest income for
    2022, in thousands of dollars?" -> "net interest income"): the frame, the company's possessive, the
    period, the unit, the statement and any instruction removed; '' when nothing is left."""
    # NOTE: "U.S." is one word, the country's (its stops would leave the letters "U" and "S")
    sentences = re.split(r"(?<=[?])\s+", re.sub(r"\bU\.S\.(?:A\.)?", "US", question.strip()), maxsplit=1)
    # NOTE: "How many people use Meta's apps every day? I'm after the daily active people figure for ...": the sentence
    # that says what is wanted in the line's words, not the question in everyday words before it
    wanted = [m for part in sentences[1:] for m in re.split(r"(?<=[.!?])\s+", part) if _WANT.match(m)]
    first = _WANT.sub("what was the ", wanted[0]) if wanted else sentences[0]
    # NOTE: "I'm on the credit side and just opened Amex's 2022 10-K. What was the total provision ...?": the sentence
    # that asks, not the persona's before it
    first = re.split(r"(?<=[.!])\s+(?=(?:What|How|Which|Give|Show|Tell|Find|Please|Can|Could)\b)", first)[-1]
    # NOTE: "I'm a retail investor ... In their fiscal Q3 2023 release, what did membership fees come to?": the sentence
    # that asks, however it starts
    last = re.split(r"(?<=[a-z]{2}[.!])\s+(?=[A-Z])", first)[-1]
    first = last if _ASKING_WORD.search(last) else first
    # NOTE: "I need the user number: for the June 2025 quarter, what was Family daily active people?": the clause that
    # asks, unless it asks of a pronoun the clauses before name ("Twilio revenue: what was it in Q2?")
    clauses = _ASKING_CLAUSE.split(first)
    if len(clauses) > 1 and not _OF_PRONOUN.match(clauses[-1]):
        first = clauses[-1]
    first = _NAMED_AS.sub(lambda m: f" {m.group('name')} " if not _INSTRUCTION_WORDS.search(m.group("name")) else m.group(0),
                          first)
    # NOTE: what the question leaves out is not the item's name, nor the column it says it means
    text = LABEL_FIRST.sub("", EXCLUDED.sub(" ", COLUMN_NOTE.sub(" ", TABLE_NAMED.sub(" ", first))))
    if not label_terms(_SHORT_UNIT.sub(" ", UNIT_ASKED.sub(" ", _NOT_ITEM.sub(" ", text)))):
        text = first  # NOTE: "Oracle R&D expense for the fiscal year ended May 31, 2021 - in millions?": only an instruction follows the dash
    text = _SPEND.sub(" ", expand_abbreviations(_SOURCE_LEAD.sub("", text)))
    for _ in range(3):  # NOTE: "Q1 2024 ... in Q1'24": one period said twice is read once; each saying goes
        said = asked_periods(text)[1]
        for words in said:
            text = text.replace(words, " ")
        if not said:
            break
    text = _SHORT_UNIT.sub(" ", UNIT_ASKED.sub(" ", _NOT_ITEM.sub(" ", _YEAR_TO_DATE.sub(" ", SPAN_LEFT.sub(" ", text)))))
    text = _FRAME.sub("", text.strip())
    # NOTE: "the EchoPark segment's income (loss)": a unit's possessive names the line ("EchoPark Segment income (loss)")
    text = re.sub(r"\b(segment|division|business|unit)['\u2019]s\b", r"\1", text.strip(), flags=re.I)
    text = re.sub(r"^[^'\u2019?]{1,40}?['\u2019]s?\s+", "", text.strip())  # "BCB Bancorp's ..."
    text = re.sub(r"\b(?:for|in|at|of|during|on)\s*(?:the\s*)?$|[?,;:.$%]+", " ", text)
    text = re.sub(r"\s+from\s+(?:the\s+)?column\b", " ", text)  # NOTE: "from the 36 Weeks Ended ... column": its period read
    text = re.sub(r"\b(?:for|in|at|of|during|on|over)\s*(?:the\s*)?$", " ", re.sub(r"\s+", " ", text).strip())
    text = _CAME_TO.sub(" ", re.sub(r"\s+", " ", text).strip()).strip()
    return _WANTED_WORD.sub("", text) if wanted else text


SPAN_LEFT = re.compile(rf"(?:\bthe\s+)?\b(?:\d{{1,2}}|twelve|sixteen|twenty-four|thirty-six)[\s-]+weeks?\s+{ENDED}\b|"
                       r"(?:\bthe\s+)?\b(?:(?:three|six|nine|twelve|\d{1,2})[\s-]+months?|(?:fiscal\s+)?(?:quarter|period)\s+(?:that\s+|which\s+)?)"
                       r"\s*(?:ended|ending)\b(?=\s*(?:[,?.;:)]|$|(?:vs\.?|versus|against|compared)(?!\w)))",
                       re.I)
"""What a date read leaves of the span that led to it ("in the three months ended", "the 12 weeks ended"): no word of the
item."""
_ASKING_CLAUSE = re.compile(r"(?<=[:,;])\s+(?=(?:what|how\s+(?:much|many))\b)", re.I)
_OF_PRONOUN = re.compile(r"(?:what|how\s+(?:much|many))\s+(?:[\w']+\s+){0,2}?(?:it|that|this|they|those|these|them)\b", re.I)


NOT_THE_RATE = re.compile(r"(?:,\s*|\b)(?:and\s+|but\s+)?not\s+(?:the\s+|a\s+|its\s+|as\s+a\s+)?(?:margin|ratio|percentage|percent|%|rate|"
                          r"growth|change)\b", re.I)
"""A rate the question sets aside ("the dollar amount in millions, not the margin"): no metric asked."""


def is_figure_question(question: str) -> bool:
    """A question asking for printed figures of named line items (not a computed metric, not yes/no),
    or for an adjusted measure the filing prints ("What were PG&E's non-GAAP core earnings ...?"); asked
    in words or pasted from notes ("COST Q1 FY23 diluted EPS"); or for a line item no vocabulary knows
    when it asks for an amount of a period ("net interest income for 2022, in thousands of dollars")."""
    # NOTE: "I want the dollar amount in millions, not the margin": a measure set aside is not asked
    if YES_NO_CLAUSE.search(question) or METRIC_CUE.search(NOT_THE_RATE.sub(" ", asking_sentences(question))):
        return False
    periods = asked_periods(question)[0]
    pasted = bool(periods) and not _ASKING_WORD.search(question)
    if not (ASKS_FIGURE.search(question) or pasted or _SPEND.search(question)):
        return False
    if concepts_in(question) or (asks_non_gaap(question) and _MEASURE.search(question)):
        return True
    amount = asked_scale(question) is not None or _MONEY_ASKED.search(question)
    return bool(periods) and bool(amount) and bool(label_terms(item_phrase(question)))


_MONEY_ASKED = re.compile(r"\bhow\s+much\s+(?:money|cash)\b", re.I)
"""An amount of money asked without its unit ("How much money did Costco take in from membership fees ...?"): the unit is
the one printed. ("How much money did X lose" is read as "What was the loss of X" first, `restate.loss_asked`, and asks
no line item here: a segment's loss is read from its row, `strategies.shapes`.)"""


_SCENE = re.compile(r"^\s*(?:hi|hello|hey|thanks|I|I['\u2019]m|I\s+am|I['\u2019]ve|we|we['\u2019]re|my|our|as\s+an?)\b", re.I)
"""A sentence that sets the scene before a question: a greeting, the asker and their purpose."""


def asking_sentences(question: str) -> str:
    """The question without the sentences before it that set the scene ("Hi! I'm putting together a blog post on why
    Costco's membership model is so sticky. How much money did Costco take in from ...?"): what they say ("why",
    "explain to my readers") is not what is asked."""
    sentences = re.split(r"(?<=[.!])\s+(?=[A-Z])", question)
    first = 0
    # NOTE: "I track 'net cash' ... the same way: cash & equivalents plus marketable securities, minus all debt.": a
    # sentence that defines what is asked is no scene
    while first < len(sentences) - 1 and "?" not in sentences[first] and _SCENE.match(sentences[first]) \
            and not _FORMULA_SAID.search(sentences[first]):
        first += 1
    return " ".join(sentences[first:])


_FORMULA_SAID = re.compile(r"\b(?:plus|minus|less|divided\s+by|over|times|ratio|margin|share\s+of|as\s+a\s+%|as\s+a\s+"
                           r"percent(?:age)?)\b|=|\s[-\u2013+/\u00d7\u00f7]\s", re.I)
"""Words of a formula or a rate: a sentence that says them says what is asked (never "VR/AR")."""


EXCLUDED = re.compile(r"\b(?:excluding|excludes?|excl\.?|not\s+including|other\s+than|net\s+of|without|ex|as\s+opposed\s+to|"
                      r"rather\s+than|instead\s+of|not\s+just|not\s+only)\s+"
                      r"(?:the\s+|its\s+|any\s+)?[\w&' -]{2,40}?(?=[),;?]|$|\s+(?:in|at|for|as\s+of|on)\b)"
                      # NOTE: "I mean the revenue by user geography chart, not the ad-only one": the other chart set aside
                      r"|\bnot\s+(?:the|a|an)\s+[\w&' -]{2,30}?\s+(?:one|chart|table|line|figure|number)\b", re.I)
"""What the question leaves out of the item ("long-term debt (excluding the current portion)"): its words never ask
for a row that names them ("Short-term borrowings and current portion of long-term debt")."""


_NOTE_LEAD = r"(?:,\s*|\(\s*|\s+[-\u2013\u2014]\s+)"
"""Where a note beside the item starts: after a comma, an opening parenthesis or a dash."""
_COLUMN_WORD = r"(?:\s+(?:one|column|figure|total|number|period))?\b"
COLUMN_NOTE = re.compile(
    rf"{_NOTE_LEAD}(?:the\s+)?(?:quarter|qtr|three[\s-]months?|3[\s-]months?|\d{{1,2}}[\s-]weeks?|q)\s+"
    r"(?:alone|only|by\s+itself|figure|column|number)\b[^,()?]*|"
    rf"(?:{_NOTE_LEAD}|\b)(?:and\s+)?not\s+(?:the\s+)?(?:(?:six|nine|twelve|thirty[\s-]six|twenty[\s-]four|\d{{1,2}})"
    rf"[\s-]+(?:months?|weeks?)|ytd|year[\s-]to[\s-]date|FY|full[\s-]year){_COLUMN_WORD}", re.I)
"""Which column the question means, said beside the item ("..., the quarter alone and not the six months", "the 12-week
column, not the 36-week one"): no word of the item (the period asked says the column)."""


def measure_terms(question: str) -> frozenset[str]:
    """The words of the adjusted measure a question names ("non-GAAP core earnings"), else none."""
    return label_terms(measure_phrase(question))


def measure_phrase(question: str) -> str:
    """The adjusted measure a question names as it writes it ("non-GAAP core earnings", "adjusted FCF"), else ''."""
    question = TABLE_NAMED.sub(" ", question)  # NOTE: "from the adjusted free cash flow reconciliation": where, not what
    found = _MEASURE.search(question) if asks_non_gaap(question) else None
    return found.group("m") if found else ""


def read_request(question: str, focus: str = "") -> FigureRequest:
    """The figure request of a question; `focus` is the router's search focus (used when the
    question names no known line item)."""
    periods, texts = asked_periods(question)
    scale = asked_scale(question)
    reconciled = reconciling_item(question)
    if reconciled:  # NOTE: "how large was the restructuring add-back?": the reconciling line, not the adjusted measure
        item = expand_abbreviations(reconciled)
        concepts = tuple(concepts_in(item))
        return FigureRequest(concepts, frozenset() if concepts else label_terms(item), tuple(periods), tuple(texts),
                             scale, False, "", label_terms(EXCLUDED.sub(" ", question)), reconciling=True)
    concepts = tuple(concepts_in(question))
    free = frozenset() if concepts else (measure_terms(question) or label_terms(item_phrase(question))
                                         or label_terms(focus or question))
    first = concepts[0].asked.search(question) if concepts else None
    # NOTE: "... reports revenue on a GAAP basis ... what was that non-GAAP revenue excluding foreign exchange effect?": the
    # item with what it leaves out, wherever the question names it so
    said = concepts[0].asked.finditer(question) if concepts else ()
    # NOTE: "the revenue figure excluding ...": the item's figure is the item
    left_out, named_from = next(((x, m) for m in said if question[m.end():m.end() + 1] == " "
                                 and (x := EXCLUDED.match(question, _ITEM_NOUN.match(question, m.end() + 1).end()))),
                                (None, first))
    return FigureRequest(concepts, free, tuple(periods), tuple(texts), scale,
                         bool(PERCENT_ASKED.search(question)) and scale is None, named_statement(question),
                         label_terms(EXCLUDED.sub(" ", question)), asks_non_gaap(question),
                         qualifier_around(question, first.start(), first.end()) if first else Qualifier(),
                         bool(PER_SHARE_ASKED.search(question)), bool(FORWARD_ASKED.search(question)),
                         tuple(label_terms(q) for q in quoted_phrases(question)),
                         label_terms(question[named_from.start():left_out.end()]) if left_out else frozenset())


_ITEM_NOUN = re.compile(r"(?:(?:figure|number|amount|level|line)\s+)?", re.I)
"""A word after an item that names it as a figure ("the revenue figure excluding ...")."""
_QUOTED = re.compile(r"(?<!\w)['\u2018\"\u201c](?P<q>[^'\u2019\"\u201d]{3,80}?)['\u2019\"\u201d](?!\w)")
"""A phrase in quotation marks, straight or curly (an apostrophe inside a word is no quotation mark)."""


def quoted_phrases(question: str) -> list[str]:
    """The phrases a question quotes, of two words or more."""
    return [m.group("q") for m in _QUOTED.finditer(question) if len(m.group("q").split()) >= 2]


def asked_scale(question: str) -> float | None:
    """The unit a question asks an amount in ("in USD billions" -> 1e9), None when it asks none."""
    unit = UNIT_ASKED.search(question)
    if not unit:
        short = _SHORT_UNIT.search(question)
        return _SHORT_SCALE[(short.group("s") or short.group("s2")).lower()] if short else None
    return SCALE_OF[re.search(r"thousands|millions|billions", unit.group(0), re.I).group(0).lower()]


_DOCUMENT_AFTER = re.compile(r"\s*(?:form\s+)?(?:10-?K|10-?Q|8-?K|20-?F|annual\s+report|proxy|filing)\b", re.I)
"""A year that names a document ("in its 2015 10-K"), not a period asked."""


_IR_DOCUMENT_AFTER = re.compile(r"\s*(?:(?-i:[A-Z])[\w&.'\u2019-]*\s+){0,2}?(?:(?:earnings|results)\s+)?(?:press\s+release|release|deck|presentation|slide|"
                                r"call|transcript|10-?Q|report)s?\b", re.I)
"""A quarter that names a document ("per the Q3 2024 press release", "in the 1Q25 deck", "the Q3 FY2023 Costco release")."""


_BASIS_AFTER = re.compile(r"\s*(?:(?:average\s+)?(?:foreign\s+)?(?:exchange\s+)?rates?|constant\s+(?:currency|dollars)|dollars)\b", re.I)
"""A year that names the basis of a measure ("using 2023 rates", "in 2023 dollars"), not a period asked."""
_LISTED_WITH = re.compile(r"\s*(?:,|and|&|\+|,\s*and)\s*")
"""What joins two quarters of one list ("Q1 FY24 and Q2 FY24")."""


_YEAR_ENDED = re.compile(rf"\b(?:fiscal\s+)?year\s+{ENDED}\s*$", re.I)
"""'in the year ended Sept 30, 2023': the twelve months to that date, not the balance at it."""
_QUARTER_ENDED = re.compile(rf"\b(?:fiscal\s+)?quarter\s+{ENDED}\s*$", re.I)
"""'for the quarter ended December 26, 2020', 'the quarter that ended September 30, 2025': the three months to that date."""


_FIRST_PART = (r"(?:the\s+)?(?:first|frist)\s+(?:(?P<half>half)|(?P<n>\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|"
               r"eleven)\s+(?P<unit>weeks|wks|months|mos|quarters))")
"""The first part of a year, by its length ("the first 36 weeks", "the first half")."""
_PART_OF_YEAR = re.compile(rf"\b(?:{_FIRST_PART}\s+(?:of\s+)?|(?P<h>1H|H1)\s*|(?P<nm>[69])M\s*)"
                           r"(?:the\s+|its\s+|their\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?'?)?(?P<y>(?:19|20)\d\d|(?<=FY)\d\d|(?<=FY\s)\d\d|"
                           r"(?<=')\d\d|(?<=1H)\d\d|(?<=H1)\d\d|(?<=[69]M)\d\d)(?:\s+fiscal(?:\s+year)?)?\b",
                           re.I)
"""The part of a fiscal year asked, counted from its start: "the first 36 weeks of fiscal 2023" (nine months), "the
first 36 weeks of its 2023 fiscal year", "the first half of fiscal 2024", "1H FY24", "9M 2024"; its end is the
document's to say (`answer.figures.gates.period_matches`)."""
_SPAN_TO_QUARTER = re.compile(r"\s*(?:to|through|thru|until|and|vs\.?|versus|[-\u2013])\s+(?:the\s+)?(?:end\s+of\s+(?:the\s+)?)?"
                              r"(?:Q[1-4]|[1-4]Q)\s+(?:of\s+)?(?:fiscal\s+)?(?:FY\s?'?)?", re.I)
"""What stands between a bare quarter and the year of the next ("Q1 to end of Q2 FY24"): the first is of that year."""
_UNIT_WORDS = {"wks": "weeks", "mos": "months"}
"""A span's unit as notes shorten it ("first 36 wks FY23")."""
_PART_OF_THE_YEAR = re.compile(rf"\b{_FIRST_PART}\s+of\s+(?:the|its|their|this)\s+(?:fiscal\s+|financial\s+)?year\b"
                               r"(?!\s*(?:19|20)\d\d)", re.I)
"""The part of a fiscal year asked without the year ("the first 36 weeks of the fiscal year" in "Costco's third-quarter
FY2023 release"): the year is the one the question names elsewhere."""
_SHORT_DURATION = re.compile(r"\b(?P<n>[69])M\s+(?:ended|ending|to|through|thru)\s*$", re.I)
"""A nine or six months' span written short before its end date ("9M ended 9/30/24"; never "3M", a company)."""
_PART_ENDED = re.compile(r"(?:\s*\(\s*)?[^.;?()]{0,40}?\b(?:ended|ending|ends|through|thru)\s+(?:on\s+)?", re.I)
"""Words between a part of a fiscal year and the date it ends ("..., the period that ended May 7, 2023", "(the stretch
that ended on May 7, 2023)")."""
_YEAR_TO_DATE = re.compile(r"\b(?:year[\s-]to[\s-]date|YTD)\b", re.I)
"""A quarter asked "year to date" ("YTD through Q3 2025"): the months of the fiscal year up to its end."""
_SAME_MONTHS = re.compile(r"\b(?:the\s+)?same\s+(?P<n>three|six|nine|3|6|9)[\s-]+months?(?:\s+period)?\s+(?:of|in)\s+"
                          r"(?P<y>(?:19|20)\d\d)\b", re.I)
"""The same span of months a year apart ("the three months ended July 31, 2023 ... versus the same three months of 2022")."""
_THROUGH_QUARTER = re.compile(r"\b(?:thru|through|to|till|until)\s+(?:the\s+)?(?:end\s+of\s+(?:the\s+)?)?(?:Q(?P<q>[1-4])|(?P<q2>[1-4])Q|"
                              r"(?P<o>first|second|third|fourth)\s+quarter)\b(?!\s*(?:FY\s?)?['\u2019]?\d)", re.I)
"""A year to date run through a quarter named without its year ("YTD (36 wks thru 3Q)")."""
_ORDINAL_QUARTERS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_WEEKS_TO_DATE = re.compile(r"\b(?P<n>\d{1,2}|six|nine)[\s-]*(?P<u>weeks?|wks?|months?|mos?)\b", re.I)
"""The length of a year to date written beside it ("36-wk ... FY23 YTD", "9 months YTD")."""
_QUARTER_OF_YEAR = re.compile(r"\s*(?:of\s+)?(?:(?:the\s+)?fiscal\s+(?:year\s+)?|FY\s?)?", re.I)
"""Words between a quarter and the year it is of ("Q3 fiscal 2023", "Q2 of 2024")."""
_NOT_BEFORE = re.compile(r"\b(?:not|rather\s+than|instead\s+of)\s+(?:the\s+)?$", re.I)
"""Words that set a period aside ("the quarter only, not YTD")."""
TO_DATE_REACH = 40
"""At most this many characters between "year to date" and the quarter it runs to ("... and the year-to-date revenue"
asks the quarter too when the quarter is named far from it)."""
RESTATED_GAP = 40
"""At most this many characters between a named year and the parenthesis that dates the part of it asked."""
_RESTATED_BEFORE = re.compile(r"\(\s*(?:the\s+)?[\w-]+\s+(?:months|weeks)\s+(?:ended|ending)\s+$", re.I)
"""'(six months ended ' before a date: the period a parenthesis restates."""


_COLUMN_AFTER = re.compile(r"\s*(?:\(\s*(?:GAAP|reported|unaudited)\s*\)\s*)?column\b", re.I)
"""A period a question names as the column to read ("from the 36 Weeks Ended May 7, 2023 column")."""


_DURATION_TO = re.compile(r"\b(months|weeks|quarters)\s+(?:to|through|thru)\s+", re.I)


def _months_before(question: str, start: int) -> int | None:
    """The length in months of the span the words before a date say it ends ("nine months ended", "fiscal year ended",
    "quarter ended", "9M ended"), else None (the date is an instant)."""
    window = _ended(question[max(0, start - 40):start])
    return _months(window) if DURATION.search(window) else 12 if _YEAR_ENDED.search(window) else \
        3 if _QUARTER_ENDED.search(window) else int(short.group("n")) if (short := _SHORT_DURATION.search(window)) else None


def _ended(text: str) -> str:
    """A duration run "to" a date read as "ended" it ("six months to July 31, 2023")."""
    return _DURATION_TO.sub(r"\1 ended ", text)


def _part_months(m: re.Match) -> int | None:
    """The months of a `_FIRST_PART` match ("the first 36 weeks": 9, "the first half": 6)."""
    if m.group("half"):
        return 6
    return _months(f"{m.group('n')} {_UNIT_WORDS.get(m.group('unit').lower(), m.group('unit'))} ended")


def asked_periods(question: str) -> tuple[list[Period], list[str]]:
    """Periods a question names, in order, with the words naming each."""
    found: list[tuple[int, int, Period, str]] = []

    def free(start: int, end: int) -> bool:
        return not any(s < end and start < e for s, e, _, _ in found)

    # NOTE: "3Q25, the quarter only not YTD": a year to date set aside is not asked
    to_dates = [t for t in _YEAR_TO_DATE.finditer(question) if not _NOT_BEFORE.search(question[max(0, t.start() - 20):t.start()])]
    for m in QUARTER.finditer(question):
        quarter = quarter_number(m)
        year_text = m.group("y") or m.group("y2") or m.group("y3") or m.group("y4") or m.group("y5")
        end = m.end()
        if not year_text:
            after = YEAR.search(question, m.end())
            if not (after and after.start() - m.end() < 12):
                # NOTE: "from end of Q1 to end of Q2 FY24": the next quarter's year, fiscal or not, is the first's too
                spanned = next((y for y in (FISCAL_YEAR.search(question, m.end()), after)
                                if y is not None and _SPAN_TO_QUARTER.fullmatch(question, m.end(), y.start())), None)
                after = spanned or after
                year_text = spanned.group("y") if spanned is not None else None
            else:
                year_text = after.group("y")
            dated = next((d for d in DATE_MDY.finditer(question, m.end(), m.end() + 30)), None)
            if year_text and dated and dated.start() <= after.start() < dated.end():
                year_text = None  # NOTE: "the end of the first quarter (Nov 20, 2022)": the date says when, not the year
            # NOTE: "through Q3 fiscal 2023": the year is the quarter's, no year asked besides it
            end = after.end() if year_text and _QUARTER_OF_YEAR.fullmatch(question, m.end(), after.start()) else end
        # NOTE: "year-to-date capital expenditures through Q3 2025": the words between the two, not their starts
        near = any((m.start() - t.end() if t.end() <= m.start() else t.start() - m.start()) <= TO_DATE_REACH for t in to_dates)
        if year_text and near and quarter > 1:
            # NOTE: "year-to-date capex through Q3 2025": the nine months that end with the quarter, never the quarter
            found.append((m.start(), end, Period("fiscal_months", "", _full_year(year_text), 3 * quarter),
                          f"year to date through {m.group(0)}"))
        elif year_text:
            found.append((m.start(), end, Period("quarter", "", _full_year(year_text), 3, quarter), m.group(0)))
    for m in MONTH_QUARTER.finditer(question):  # "the July quarter of FY24", "the July 2023 quarter"
        month = month_number(m.group("m"))
        if month and m.group("fy"):
            found.append((m.start(), m.end(), Period("fiscal_months", f"--{month:02d}", _full_year(m.group("fy")), 3),
                          m.group(0)))
        elif month and (m.group("y") or m.group("cy") or m.group("cy2")):
            year = int(m.group("y") or m.group("cy") or m.group("cy2"))
            found.append((m.start(), m.end(), Period("months", f"{year}-{month:02d}", year, 3), m.group(0)))
    for pattern in (DATE_MDY, DATE_DMY):
        for m in pattern.finditer(question):
            if free(*m.span()):
                iso = dates_in(m.group(0))
                if iso:
                    months = _months_before(question, m.start())
                    kind = "months" if months and months < 12 else "fiscal_year" if months else "instant"
                    found.append((m.start(), m.end(), Period(kind, iso[0], int(iso[0][:4]), months), m.group(0)))
    for m in _NUMERIC_DATE.finditer(question):  # "as of 12/31/2022", "9M ended 9/30/24"
        if free(*m.span()) and 1 <= int(m.group("m")) <= 12 and 1 <= int(m.group("d")) <= 31:
            year = _full_year(m.group("y"))
            months = _months_before(question, m.start())
            kind = "months" if months and months < 12 else "fiscal_year" if months else "instant"
            found.append((m.start(), m.end(), Period(kind, f"{year}-{int(m.group('m')):02d}-{int(m.group('d')):02d}",
                                                     year, months), m.group(0)))
    dated = [f for f in found if f[2].kind == "months" and len(f[2].end) == 10]
    for m in _SAME_MONTHS.finditer(question):  # NOTE: "..., versus the same three months of 2022": the dated span a year on
        same = [f for f in dated if f[2].months == _months(f"{m.group('n')} months ended")]
        if same and free(*m.span()):
            end = f"{m.group('y')}{same[0][2].end[4:]}"
            found.append((m.start(), m.end(), Period("months", end, int(m.group("y")), same[0][2].months), m.group(0)))
    for m in _PART_OF_YEAR.finditer(question):  # "the first 36 weeks of fiscal 2023", "1H FY24"
        if free(*m.span()):
            months = 6 if m.group("h") else int(m.group("nm")) if m.group("nm") else _part_months(m)
            if months and months < 12:
                found.append((m.start(), m.end(), Period("fiscal_months", "", _full_year(m.group("y")), months), m.group(0)))
    for pattern in (FISCAL_YEAR, YEAR):
        for m in pattern.finditer(question):
            if free(*m.span()) and not _DOCUMENT_AFTER.match(question, m.end()) and not _BASIS_AFTER.match(question, m.end()):
                found.append((m.start(), m.end(), Period("year", "", _full_year(m.group("y"))), m.group(0).strip()))
    years = {f[2].year for f in found if f[2].year}
    for m in _PART_OF_THE_YEAR.finditer(question):
        months = _part_months(m)
        if free(*m.span()) and len(years) == 1 and months and months < 12:
            # NOTE: the year named elsewhere is this part's ("FY2023"), asked as a year no more
            found = [f for f in found if f[2].kind != "year"]
            found.append((m.start(), m.end(), Period("fiscal_months", "", years.pop(), months), m.group(0)))
    found.sort(key=lambda x: x[0])
    through = _THROUGH_QUARTER.search(question) if to_dates else None
    named_years = [f for f in found if f[2].kind == "year"]
    weeks = _WEEKS_TO_DATE.search(question) if to_dates and not through else None
    unit = _UNIT_WORDS.get(weeks.group("u").lower().rstrip("s") + "s", weeks.group("u")) if weeks else ""
    unit = "weeks" if unit.lower().startswith("w") else "months" if unit.lower().startswith("mo") else unit
    if weeks and len(named_years) == 1 and len(found) == 1 and (months := _months(f"{weeks.group('n')} {unit} ended")) \
            and months < 12:
        # NOTE: "COST 36-wk interest expense FY23 YTD": the year to date of that length, of the one year named
        start, end, period, words = named_years[0]
        found = [(start, end, Period("fiscal_months", "", period.year, months), f"{words} year to date")]
    if through and len(named_years) == 1 and len(found) == 1:
        # NOTE: "COST FY23 YTD (36 wks thru 3Q)": the year to date through the quarter named without its year, of the one
        # year named
        quarter = _ORDINAL_QUARTERS.get((through.group("o") or "").lower()) or int(through.group("q") or through.group("q2"))
        start, end, period, words = named_years[0]
        found = [(start, end, Period("fiscal_months", "", period.year, 3 * quarter), f"{words} year to date through Q{quarter}")]
    quarters = [f for f in found if f[2].kind == "quarter"]
    if to_dates and len(found) == 1 and quarters and (quarters[0][2].quarter or 1) > 1 \
            and _IR_DOCUMENT_AFTER.match(question, quarters[0][1]):
        # NOTE: "In their fiscal Q3 2023 release ..., what did membership fees come to year to date?": the one quarter,
        # named as the document's, however far from "year to date", is the quarter the months to date run through ("the
        # Q3 2024 revenue, and separately ... the year-to-date revenue" asks the quarter too)
        start, end, period, words = quarters[0]
        found = [(start, end, Period("fiscal_months", "", period.year, 3 * period.quarter), words)]
    # NOTE: "the first 36 weeks of its 2023 fiscal year, the period that ended May 7, 2023": the part of the year, ended
    # on the date named after it, is one period
    for part, date in zip(list(found), list(found[1:])):
        if part[2].kind == "fiscal_months" and date[2].kind == "instant" and date[2].end \
                and _PART_ENDED.fullmatch(question, part[1], date[0]):
            merged = (part[0], date[1], Period("months", date[2].end, date[2].year, part[2].months), question[part[0]:date[1]])
            found = [merged if f is part else f for f in found if f is not date]
    # NOTE: "for the first nine months of 2024, per the Q3 2024 press release": a quarter that names the document is no
    # period asked beside a year, a part of one or a date asked (alone, "revenue in the Q3 2024 release", it is the quarter
    # asked; beside another quarter, "from eBay's Q2 2023 release, ... sequentially versus Q1 2023", one of the two)
    naming: list = []
    for f in reversed([f for f in found if f[2].kind == "quarter"]):
        # NOTE: "Salesforce's Q1 FY24 and Q2 FY24 releases": each quarter of the list names a document
        if _IR_DOCUMENT_AFTER.match(question, f[1]) or any(_LISTED_WITH.fullmatch(question, f[1], g[0]) for g in naming):
            naming.append(f)
    others = [f for f in found if f not in naming]
    if naming and (any(f[2].kind in ("fiscal_months", "year") or f[2].end for f in others)
                   or len([f for f in others if f[2].kind == "quarter"]) >= 2):
        # NOTE: "Using the Q2 2024 and Q2 2025 Meta earnings decks: how much did free cash flow change from Q2 2022 to
        # Q2 2025?": two quarters asked besides those naming the decks are the ones asked
        found = others
    # NOTE: "the first half of fiscal 2024 (six months ended July 31, 2023)": the dated period in parentheses says which
    # part of the named year is asked; the year is not asked besides it (a quarter named is kept: its fiscal reading
    # dates the same quarter a year before)
    restated = [f for f in found if f[2].kind == "months" and _RESTATED_BEFORE.search(_ended(question[max(0, f[0] - 30):f[0]]))]
    if restated:
        found = [f for f in found if f[2].end or f[2].kind == "quarter"
                 or not any(0 < r[0] - f[1] <= RESTATED_GAP for r in restated)]
    # NOTE: "I need SG&A from the 36 Weeks Ended May 7, 2023 column": the column named is the period asked, whatever else
    # names the document ("Loading Costco FY2023 Q3 into my dataset")
    columns = [f for f in found if _COLUMN_AFTER.match(question, f[1])]
    found = columns or found
    periods: list[Period] = []
    texts: list[str] = []
    for _, _, period, text in found:
        if period not in periods:
            periods.append(period)
            texts.append(text)
    return periods, texts
