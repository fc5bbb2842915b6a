"""One text normaliser with named modes: every word VERA counts is counted here.

Retrieval, routing, coverage and grounding each read words their own way; the modes keep those ways
side by side, so a change to one is made knowingly and the others stay as they are:

- `keyword`: BM25 tokens. Lowercase words and numbers in text order, thousands separators dropped
  (1,577 == 1577), a short stopword list removed, no stemming.
- `terms`: the answer terms. Keyword tokens without question noise ("what", "tell", "figure"...),
  crudely stemmed ('expenditures' ~ 'expenditure'); sentence selection, section titles, row labels.
- `figures`: the figures of a text as written, thousands separators dropped ("1,577.5" -> "1577.5").
- `key`: a question's key terms for retrieval coverage: its `terms` and its `figures`.
- `content`: grounding's content tokens. A longer stopword list, a lighter stemmer ('increased' ~
  'increase'), figures normalised ('1,577.00' -> '1577', '(1,577)' -> '-1577'), '%' read as
  'percent', citation markers and Markdown table pipes ignored.
- `phrase`: words for phrase matching (topics and their synonyms). Lowercase letters and digits,
  hyphens and slashes split words ("multi-factor" -> "multi", "factor"), nothing dropped, each word
  stemmed as `content` stems it, so "encrypted at rest" matches "encrypt at rest".
- `focus`: the router's focus words. Whitespace-split words, outer punctuation stripped, case kept;
  stopwords dropped (an acronym such as "US" stays), and a bare location noun ("section", "note")
  dropped unless its number follows.

Every mode returns a list in text order, duplicates kept; callers that want a set take one.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Literal, get_args

__all__ = ["Mode", "MODES", "normalise", "keyword_tokens", "terms", "term_list", "stem", "figures", "key_terms",
           "content_tokens", "content_stem", "focus_words", "phrase_tokens", "KEYWORD_STOPWORDS", "QUESTION_NOISE",
           "CONTENT_STOPWORDS", "FOCUS_STOPWORDS", "LOCATION_NOUNS", "TOPIC_GENERIC", "TOPIC_STOPWORDS",
           "SHORT_WORDS", "FIGURE_ASK_WORDS", "words_of", "ACRONYM_JOINING"]

Mode = Literal["keyword", "terms", "figures", "key", "content", "focus", "phrase"]
MODES: tuple[str, ...] = get_args(Mode)

# -- word lists -----------------------------------------------------------------------------------
KEYWORD_STOPWORDS = frozenset(
    "a an and are as at be by for from has have in is it its of on or that the this to was were will with "
    "what which who whom how does did do in into than then there these those their our we you your".split())
"""Dropped from BM25 tokens (`keyword`)."""

QUESTION_NOISE = frozenset(
    "what which who when where why how is are was were does did do can could should would please give "
    "tell show me us about say says said describe explain provide answer question based relying details "
    "detail shown amount figure value response fy company company's".split())
"""Words of asking, dropped from the answer terms (`terms`) on top of the keyword stopwords."""

CONTENT_STOPWORDS = frozenset("""
a an the and or but nor of in on at to for from by with without within into onto over under as
is are was were be been being am has have had having do does did doing will would shall should
can could may might must this that these those it its it's they them their theirs we our ours
you your he she his her him i me my which who whom whose what when where why how than then so
such not no yes all any both each few more most other some own same too very s t just also
there here about above below after before during between through up down out off again further
once per via if while whereas because until upon only amongst among
""".split())
"""Dropped from grounding's content tokens (`content`)."""

FOCUS_STOPWORDS = frozenset("""
    a about all also an and any are as at be been being by can could did do does each every for from give
    had has have how i if in into is it its me of on or our please say says said show tell that the their them
    then there these this those to us was we were what when where which who whom why will with would you your
    much many find locate discuss discusses discussed describe describes described disclose discloses
    disclosed cover covers covered mention mentions mentioned explain explains explained document summarize
    summarise see read shown
    """.split())
"""Dropped from the router's focus (`focus`), unless written as an acronym ("US")."""

LOCATION_NOUNS = frozenset({"note", "notes", "section", "sections", "part", "chapter", "page", "pages", "item"})
"""Dropped from the focus when no number or letter names which one ("note 7" stays)."""

TOPIC_GENERIC = frozenset("""
    data information policy policies document documents file files section sections clause clauses provision
    provisions specific relevant respective provide list name identify address addresses addressed cover covers
    covered mention mentions mentioned discuss discusses discussed deal deals talk talks refer refers regarding
    concerning relating related say says state states set sets out requirement requirements rule rules
    someone somebody anyone anybody apply applies applying applied company organisation organization
    """.split())
"""Words of a document-coverage question that do not say what its topic is ("which policies address
... Provide the specific policy sections"), dropped from the topic's concepts (`phrase` words)."""

TOPIC_STOPWORDS = FOCUS_STOPWORDS | TOPIC_GENERIC
"""Dropped from a document-coverage topic before its words become concepts."""

SHORT_WORDS = frozenset(
    "a i am an as at be by do go he if in is it me my no of on or so to up us we "
    "and are but can did for had has her him his its may new nor not now off old one our out own per "
    "she the too two use via was who why yet you all any few low set big end key net top tax due "
    "also each from into more most only over such than that them then they this upon very what when "
    "with ever".split())
"""Short words that stand on their own: never the second piece of a word a PDF split ("cash out")."""

# -- patterns -------------------------------------------------------------------------------------
# -- line items and document titles (questions/qualifiers.py, retrieve/doc_scope.py) --------------
QUALIFIER_STOP = frozenset("""for of in from at on by during with what whats was were is are did does do how much many which who
when where as per than versus vs over into to its their his her our your my this that these those each every
give provide calculate compute tell show find me please have has had be been being make made earn earned earns
generate generated report reports post posted achieve achieved see saw i we you they it track tracks follow
cover covers watch analyst analysts investor investors drove drive drives driving driven cause caused causes
explain explains affect affected impact impacted contribute contributed led behind compared comparing relative against
using based spend spends spent spending lose loses lost losing inside within fill filling fills populate populating update updating
build builds building built check checks checking tie ties tying reconcile reconciles reconciling benchmark benchmarking
shows showed showing both either""".split())
"""A word that ends the qualifier (read right to left)."""

QUALIFIER_SKIP = frozenset("""the a an total consolidated reported company company's group overall full year years full-year annual
annualized quarterly quarter fiscal fy ytd year-to-date gaap non-gaap net gross adjusted adj basic diluted current prior
latest last recent approximate approximately same y/y yoy average mean growth change cagr rate compound ratio percent
percentage margin unadjusted as-reported statutory balance balances closing opening ending end period improving improved increasing increased declining declined rising
rose falling fell growing grew higher lower better worse stable positive negative healthy strong weak count counts segment segments
actually really exactly precisely""".split())
"""Words that do not make the item another line ("total revenue" is revenue)."""

ACRONYM_JOINING = frozenset({"of", "for", "and", "on", "to", "in"})
"""Small words an acronym skips between the words it spells ("provision for credit losses": PCL; answer/acronyms.py)."""

QUALIFIER_CONNECTIVES = frozenset({"over", "on", "to", "end", "ending", "of", "by"})
"""Parts of hyphenated period words ("year-over-year", "year-end", "quarter-on-quarter")."""

LABEL_WORD_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9&'\u2019.-]*")
"""A word of a question as a row label's words are matched against it (`questions.row_asks`)."""
ACRONYM_SKIP = frozenset({"and", "of", "the", "for", "a", "an", "on", "to", "in", "&"})
"""Words a title's initials leave out ("BCP" for the Business Continuity Plan)."""

QUALIFIER_TOKEN = re.compile(r"\(|\)|[A-Za-z][A-Za-z0-9&'\u2019./-]*|\d[\w,./&'\u2019-]*|[^\sA-Za-z\d]")
"""A question's tokens as the qualifier reader walks them (words with hyphens and apostrophes, figures, marks)."""

QUOTED = re.compile(r"(?:^|(?<=[\s(]))['\"\u2018\u201c](?P<q>[^'\"\u2019\u201d]{3,60})['\"\u2019\u201d](?=[\s?.,;:)!]|$)")
"""A phrase a question quotes: the term or line it asks about, as the documents print it."""

TITLE_KIND_WORDS = frozenset({"policy", "policies", "standard", "standards", "procedure", "procedures", "guide",
                           "guideline", "guidelines", "handbook", "process", "plan", "program", "programme", "the",
                           "and", "of", "for", "a", "an", "our", "page", "document"})
"""Words of a title that say what kind of document it is, not which one."""

TITLE_FOLLOWS = frozenset("""the a an our your their its this that these in of from per under by to on about for
according see read check within at with""".split())
"""Words a title may follow: a title that follows another content word ends a longer name, it is not named."""

FIGURE_ASK_WORDS = frozenset("""what whats was were is are the end ending ended at as of in for quarter qtr fiscal year fy
deck slide slides releas press per accord report company total number how many much did have had its their figur
exact exactly level count amount close closing bring brought generat deliver earn mak mad post""".split())
"""A figure question's words that ask, place or scope rather than name the item ("what was", "at the end of", "per the
deck"), as `terms` stems them."""

NOT_COMPANY_WORDS = frozenset("""who what which when where how did does is was the cfo ceo ir coo q&a i in on for list
name every all give tell and fy q1 q2 q3 q4 first second third fourth fiscal""".split())
"""Capitalised words of a question that name no company ("Who", "CFO", "Q2")."""

_KEYWORD = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*")
_TERM_SUFFIX = re.compile(r"(ies|es|s|ed|ing)$")
_FIGURE = re.compile(r"\d[\d,.]*")
_CITATION = re.compile(r"\[\^?\d+(?:\s*[,;\u2013-]\s*\^?\d+)*\]")
_CONTENT = re.compile(r"(?P<open>\()?(?:(?<![\w.])(?P<neg>[-\u2212]))?\$?(?P<num>\d[\d,]*(?:\.\d+)?)(?P<close>\))?"
                      r"|(?P<pct>%)|(?P<word>[^\W\d_]+)")
_FOCUS_STRIP = "?!,;:\"()[]{}'."
_PHRASE = re.compile(r"[a-z0-9]+")
_NAMED_BY = re.compile(r"\d+[A-Za-z]?|[IVXivx]+|[A-Za-z]")
"""What names one note or section: 'note 7', 'section 2A', 'part II', 'item A'."""


# -- modes ----------------------------------------------------------------------------------------
def keyword_tokens(text: str) -> list[str]:
    """`keyword` mode: lowercase word and number tokens; thousands separators dropped so 1,577 == 1577."""
    out = []
    for token in _KEYWORD.findall(text.lower()):
        if token[0].isdigit():
            token = token.replace(",", "")
        if token not in KEYWORD_STOPWORDS:
            out.append(token)
    return out


def stem(token: str) -> str:
    """The `terms` stemmer: crude suffix stripping so 'expenditures' ~ 'expenditure', 'acquired' ~
    'acquire', a verb's noun in -al ('approval' ~ 'approve'), then a final silent 'e' or a 'y' so
    that a word and its plural share one stem ('example' ~ 'examples', 'revenue' ~ 'revenues',
    'policy' ~ 'policies'). Tokens of four letters or fewer and figures stay as they are."""
    if len(token) <= 4 or token[0].isdigit():
        return token
    stemmed = _TERM_SUFFIX.sub("", token)
    if len(stemmed) >= 7 and stemmed.endswith("al") and stemmed[-3] not in "aeiou":
        stemmed = stemmed[:-2]  # the noun of a verb: 'approval' ~ 'approve', 'disposal' ~ 'dispose', 'removal' ~ 'remove'
    return stemmed[:-1] if len(stemmed) > 4 and stemmed[-1] in "ey" else stemmed


def _term_list(text: str) -> list[str]:
    return [stem(t) for t in keyword_tokens(text) if t not in QUESTION_NOISE]


def terms(text: str) -> set[str]:
    """`terms` mode as a set: the stemmed content terms of a question or passage."""
    return set(_term_list(text))


def term_list(text: str) -> list[str]:
    """`terms` mode in the text's order (which words stand next to each other)."""
    return _term_list(text)


def _figure_list(text: str) -> list[str]:
    return [n.replace(",", "") for n in _FIGURE.findall(text)]


def figures(text: str) -> set[str]:
    """`figures` mode as a set: digit runs as written (a trailing '.' kept), thousands separators dropped."""
    return set(_figure_list(text))


def key_terms(text: str) -> set[str]:
    """`key` mode as a set: a question's terms and its figures (what retrieval coverage counts)."""
    return terms(text) | figures(text)


def content_stem(word: str) -> str:
    """The `content` stemmer: plural -s/-es/-ies, -ed, -ing, then a doubled or silent final letter,
    so 'increase', 'increased', 'increases' and 'increasing' share one stem."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("ied"):
        return word[:-3] + "y"
    stemmed = word
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        stemmed = word[:-1]
    elif word.endswith("ed") and not word.endswith("eed") and len(word) > 4:
        stemmed = word[:-2]
    elif word.endswith("ing") and len(word) > 5:
        stemmed = word[:-3]
    if stemmed != word and len(stemmed) > 2 and stemmed[-1] == stemmed[-2] and stemmed[-1] not in "aeiouylsz":
        stemmed = stemmed[:-1]  # stopped -> stop, running -> run
    if len(stemmed) > 3 and stemmed.endswith("e"):
        stemmed = stemmed[:-1]
    return stemmed


def _figure_token(num: str, negative: bool) -> str:
    digits = num.replace(",", "")
    if "." in digits:
        digits = digits.rstrip("0").rstrip(".")
    digits = str(Decimal(digits)) if digits else "0"
    return "-" + digits if negative and digits.strip("0.") else digits


def content_tokens(text: str) -> list[str]:
    """`content` mode: lowercase content tokens of `text`, in order: stopwords dropped, light stemming,
    figures normalised ('1,577.00' -> '1577', '(1,577)' -> '-1577'), '%' read as 'percent', citation
    markers and Markdown table pipes and emphasis ignored."""
    tokens: list[str] = []
    for m in _CONTENT.finditer(_CITATION.sub(" ", text)):
        if m.group("num"):
            negative = bool(m.group("neg")) or bool(m.group("open") and m.group("close"))
            tokens.append(_figure_token(m.group("num"), negative))
        elif m.group("pct"):
            tokens.append("percent")
        else:
            word = m.group("word").lower()
            if len(word) > 1 and word not in CONTENT_STOPWORDS:
                tokens.append(content_stem(word))
    return tokens


def _is_filler(word: str, following: str) -> bool:
    low = word.lower()
    if low in FOCUS_STOPWORDS and not (word.isupper() and len(word) > 1):
        return True
    return low in LOCATION_NOUNS and not _NAMED_BY.fullmatch(following)


def focus_words(text: str) -> list[str]:
    """`focus` mode: the words of `text` that say what it is about, case and order kept."""
    words = [w.strip(_FOCUS_STRIP) for w in text.split()]
    words = [w for w in words if w]
    return [w for w, following in zip(words, words[1:] + [""]) if not _is_filler(w, following)]


def phrase_tokens(text: str) -> list[str]:
    """`phrase` mode: every lowercase word of `text` in order, stemmed as `content` stems it."""
    return [content_stem(w) for w in _PHRASE.findall(text.lower().replace("\u2019", "'"))]


_MODES = {"phrase": phrase_tokens, "keyword": keyword_tokens, "terms": _term_list, "figures": _figure_list,
          "key": lambda text: _term_list(text) + _figure_list(text), "content": content_tokens,
          "focus": focus_words}


def normalise(text: str, mode: Mode) -> list[str]:
    """The tokens of `text` in `mode` (see the module docstring), in text order, duplicates kept."""
    tokenise = _MODES.get(mode)
    if tokenise is None:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    return tokenise(text)


_PRINTED_WORD = re.compile(r"[A-Za-z]{4,}")


def words_of(texts) -> frozenset[str]:
    """The words (four letters or more, lower case) texts print: what a misspelt word of a question is read as
    (`questions.spelling`)."""
    return frozenset(w.lower() for text in texts for w in _PRINTED_WORD.findall(text))

JOINING_WORDS = frozenset("of and or for to in on at by from with the a an".split())
"""Words that join the words of a name or a title and start no item ("of sales" is no line; "Group Head, Wholesale
Banking" is the "head of Wholesale Banking")."""

CAPITALISED_NOT_NAMES = frozenset("january february march april may june july august september october november december "
                                  "monday tuesday wednesday thursday friday street fiscal quarter".split())
"""Capitalised words of a question that name no person, company or thing spoken of (months, days, "Street")."""
