"""Synthetic relation files of any size whose statistics follow the default corpora's, for the scale benchmark
(``benchmarks/paper_scale.py``): the relations phase imports them like relations made elsewhere
(``relations.imported``), so every later step runs on them as on real relations.

The model, fitted once on the default English relations (``benchmarks/fit_synthetic_relations.py``; the parameters are
kept in ``benchmarks/synthetic_relations.json``):

* **articles** over 3-day windows of ten years (1,220 windows), uniformly; each article has a geometric number of
  relations (the default's mean) in sentences of a geometric number of relations; a share of the sentences repeat an
  agency's boilerplate (dropped by the merge, as repeated sentences are);
* **argument pairs** within a window come from the window's "stories": story ``k`` of a window is chosen with Zipf
  weight ``k^-window_zipf`` and is one argument pair, both arguments drawn from the corpus-wide argument distribution,
  so a few pairs dominate a window (starring pairs) and the distinct pairs of a window grow as measured on the
  default's windows;
* **predicates** of a pair come likewise from the pair's own predicate slots (Zipf ``pair_zipf``), each slot mapping to
  a predicate of the corpus-wide distribution: a pair is seen with few predicates, as measured;
* the corpus-wide distributions of predicates and arguments are Zipf laws whose vocabularies keep growing with the
  corpus (Heaps' law ``V = base * (N / base_relations) ^ growth``, ``growth`` measured by sub-sampling the default,
  ``base`` and the exponent fitted so that the synthetic corpus has the default's vocabulary at its size and at a
  tenth of it), the most
  frequent predicates being the default's own (so WordNet finds their hyponyms, as for real predicates), the others
  and every argument synthetic names; an argument's type is fixed by a hash with the default's type shares.

Every draw is seeded: the same parameters, size and seed give the same files.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

MAX_SLOTS = 1_000_000  # story / predicate slots of one window / pair


@dataclass(frozen=True)
class Vocabulary:
    """A Zipf law ``p(r) ~ r^-zipf`` over ``base * (N / base_relations) ^ growth`` ranks for a corpus of N relations."""

    zipf: float
    base: float
    growth: float

    def size(self, relations: int, base_relations: int) -> int:
        return max(int(self.base * (relations / base_relations) ** self.growth), 10)


@dataclass(frozen=True)
class SyntheticModel:
    base_relations: int  # relations of the corpus the parameters were fitted on
    relations_per_article: float
    relations_per_sentence: float
    repeated_sentence_share: float
    sentence_characters: int
    window_zipf: float
    pair_zipf: float
    predicates: Vocabulary
    arguments: Vocabulary
    type_shares: dict[str, float]
    head_predicates: list[str] = field(default_factory=list)
    first_year: int = 2007
    years: int = 10
    window_days: int = 3

    @classmethod
    def load(cls, path: str | os.PathLike) -> SyntheticModel:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        model = data["model"]
        for name in ("predicates", "arguments"):
            model[name] = Vocabulary(**model[name])
        return cls(**model)

    def to_json(self) -> dict:
        return asdict(self)


def _splitmix(values: np.ndarray) -> np.ndarray:
    """A 64-bit mix of unsigned integers (splitmix64's finaliser): independent-looking hashes of consecutive keys."""
    with np.errstate(over="ignore"):
        z = values.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def hashed_uniform(*keys: np.ndarray, salt: int) -> np.ndarray:
    """A uniform number in [0, 1) for each row of integer ``keys``, a deterministic function of the keys and salt."""
    state = np.full(np.broadcast(*keys).shape, np.uint64(salt), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for key in keys:
            state = _splitmix(state ^ np.asarray(key).astype(np.uint64))
    return (state >> np.uint64(11)).astype(np.float64) / float(1 << 53)


class ZipfSampler:
    """Inverse-CDF sampling of ranks 0..size-1 with ``p(r) ~ (r + 1)^-exponent``."""

    def __init__(self, exponent: float, size: int):
        weights = np.arange(1, size + 1, dtype=np.float64) ** -exponent
        self.cdf = np.cumsum(weights)
        self.cdf /= self.cdf[-1]

    def __call__(self, uniform: np.ndarray) -> np.ndarray:
        return np.minimum(np.searchsorted(self.cdf, uniform, side="right"), len(self.cdf) - 1)


def window_names(model: SyntheticModel) -> list[tuple[str, dt.date, int]]:
    """(window name, first day, days) of every window: disjoint ``window_days`` windows per calendar year."""
    from ..corpus.articles import window_of

    windows = []
    for year in range(model.first_year, model.first_year + model.years):
        day = dt.date(year, 1, 1)
        while day.year == year:
            name = window_of(day, model.window_days)
            end = dt.date(int(name[:4]), int(name[-5:-3]), int(name[-2:]))
            windows.append((name, day, (end - day).days + 1))
            day = end + dt.timedelta(days=1)
    return windows


def generate_relations(
    model: SyntheticModel, relations: int, output: str | os.PathLike, *, seed: int = 0, file_relations: int = 2_000_000
) -> list[Path]:
    """About ``relations`` synthetic relations (whole articles) as relation files of ``file_relations`` relations
    each (``relations-<k>.parquet``, the imported-relations schema) in ``output``; returns the files."""
    import pyarrow.parquet as pq

    from ..atomic import atomic_file

    output = Path(output)
    output.mkdir(parents=True, exist_ok=True)
    draw = _Draw(model, relations, seed)
    rng = np.random.default_rng(seed)
    files, article_base, made = [], 0, 0
    file_count = max(-(-relations // file_relations), 1)
    for k in range(file_count):
        count = relations * (k + 1) // file_count - relations * k // file_count  # the files' targets add up to relations
        table, articles = draw.file_table(rng, count, article_base)
        path = output / f"relations-{len(files):04d}.parquet"
        with atomic_file(path) as tmp:
            pq.write_table(table, tmp, compression="zstd", row_group_size=131_072)
        files.append(path)
        article_base += articles
        made += table.num_rows
        log.info("%s: %d relations of %d articles (%d of %d)", path.name, table.num_rows, articles, made, relations)
    return files


class _Draw:
    """What every file of one synthetic corpus draws from: its windows, the Zipf samplers of predicates, arguments
    and slots, the argument types' shares, the head predicates and the sentences' filler."""

    def __init__(self, model: SyntheticModel, relations: int, seed: int):
        self.model, self.seed = model, seed
        windows = window_names(model)
        self.names = np.array([w for w, _, _ in windows])
        self.starts = np.array([d.toordinal() for _, d, _ in windows])
        self.lengths = np.array([n for _, _, n in windows])
        self.samplers = {
            name: ZipfSampler(vocabulary.zipf, vocabulary.size(relations, model.base_relations))
            for name, vocabulary in (("predicates", model.predicates), ("arguments", model.arguments))
        }
        self.window_slots, self.pair_slots = ZipfSampler(model.window_zipf, MAX_SLOTS), ZipfSampler(model.pair_zipf, MAX_SLOTS)
        self.type_names = np.array(sorted(model.type_shares))
        type_cdf = np.cumsum([model.type_shares[t] for t in self.type_names])
        self.type_cdf = type_cdf / type_cdf[-1]
        self.head = np.array(model.head_predicates, dtype=object)
        self.filler = "x" * max(model.sentence_characters, 1)

    def file_table(self, rng, count: int, article_base: int):
        """About ``count`` relations of whole articles (numbered from ``article_base``), and the number of articles."""
        import pyarrow as pa
        import pyarrow.compute as pc

        model, seed = self.model, self.seed
        sizes = rng.geometric(1.0 / model.relations_per_article, size=max(int(count / model.relations_per_article), 1))
        article = np.repeat(np.arange(len(sizes)), sizes)
        n = len(article)
        window = rng.integers(0, len(self.names), size=len(sizes))
        day = self.starts[window] + (rng.random(len(sizes)) * self.lengths[window]).astype(np.int64)
        # sentences: a relation starts a new sentence with probability 1 / relations_per_sentence (the first always)
        first_of_article = np.r_[True, article[1:] != article[:-1]]
        new_sentence = first_of_article | (rng.random(n) < 1.0 / model.relations_per_sentence)
        sentence_number = np.cumsum(new_sentence)
        sentence_id = sentence_number - sentence_number[np.flatnonzero(first_of_article)][np.cumsum(first_of_article) - 1]
        w = window[article]
        story = self.window_slots(rng.random(n))
        arguments = self.samplers["arguments"]
        subj = arguments(hashed_uniform(w, story, salt=seed * 7 + 2))
        obj = arguments(hashed_uniform(w, story, salt=seed * 7 + 3))
        obj = np.where(obj == subj, (obj + 1) % arguments.cdf.size, obj)
        slot = self.pair_slots(rng.random(n))
        pred = self.samplers["predicates"](hashed_uniform(np.minimum(subj, obj), np.maximum(subj, obj), slot, salt=seed * 7 + 4))
        article_ids = pc.binary_join_element_wise("syn", pa.scalar(str(seed)), pc.cast(pa.array(article + article_base), pa.string()), "-")
        dates = [dt.date.fromordinal(int(d)).isoformat() for d in day]
        table = pa.table(
            {
                "article_id": article_ids,
                "date": pa.array(np.array(dates, dtype=object)[article], pa.string()),
                "window": pa.array(self.names[w]),
                "sentence_id": pa.array(sentence_id.astype(np.int32)),
                "sentence": self.sentences(article + article_base, article_ids, sentence_id, w),
                "subj": self.argument_names(subj),
                "pred": self.predicate_names(pred),
                "obj": self.argument_names(obj),
                "subj_type": self.argument_types(subj),
                "obj_type": self.argument_types(obj),
            }
        )
        return table, len(sizes)

    @staticmethod
    def argument_names(ranks):
        import pyarrow as pa
        import pyarrow.compute as pc

        return pc.binary_join_element_wise("e", pc.cast(pa.array(ranks), pa.string()), "")

    def argument_types(self, ranks):
        import pyarrow as pa

        drawn = np.searchsorted(self.type_cdf, hashed_uniform(ranks, salt=self.seed * 7 + 5), side="right")
        return pa.array(self.type_names[drawn.clip(0, len(self.type_names) - 1)])

    def predicate_names(self, pred):
        """The head predicates by name (the model's), the rest ``p<rank>``."""
        import pyarrow as pa
        import pyarrow.compute as pc

        head = self.head
        in_head = pred < len(head)
        names = np.where(in_head, head[np.minimum(pred, max(len(head) - 1, 0))] if len(head) else "", None)
        names[~in_head] = pc.binary_join_element_wise("p", pc.cast(pa.array(pred[~in_head]), pa.string()), "").to_numpy(zero_copy_only=False)
        return pa.array(names, pa.string())

    def sentences(self, article, article_ids, sentence_id, window):
        """A sentence's text names its article and place (every relation of a sentence shares it), or is one of five
        boilerplate sentences of its window, repeated across articles."""
        import pyarrow as pa
        import pyarrow.compute as pc

        filler = pa.scalar(self.filler)
        places = pc.binary_join_element_wise("sentence", article_ids, pc.cast(pa.array(sentence_id), pa.string()), filler, " ")
        repeated = hashed_uniform(article, sentence_id, salt=self.seed * 7 + 6) < self.model.repeated_sentence_share
        boilerplate = pc.binary_join_element_wise(
            "agency boilerplate", pa.array(self.names[window]), pc.cast(pa.array(sentence_id % 5), pa.string()), filler, " "
        )
        return pc.if_else(pa.array(repeated), boilerplate, places)
