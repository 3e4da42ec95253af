"""Phase "corpus": news corpora to one table of dated articles: ``article_id, date, window, title, text``.

One module per source (reuters, newscrawl, cctv, clue), what the readers share (reading), the sources by name
(sources), and windowing (articles).

Readers: Reuters-21578 SGML (default English), WMT document-level News Crawl (paper-scale English), CCTV
Xinwen Lianbo JSON (default Chinese), CLUE news2016zh JSON lines (paper-scale Chinese; its time has no year,
so 2016 is taken, as the authors did). Windows are disjoint spans of ``window_days`` days counted per calendar
year from 1 January (the last window of a year ends on 31 December); the paper uses 3 days.

Every reader counts, per file, the records it read and the ones it skipped with the reason (a
:class:`ReadingReport`, logged per file and written beside the articles for the dataset card); a record that
cannot be parsed in a way that would change the corpus (an unclosed element, a file cut short, bytes that are
not UTF-8, an entry of an unknown shape) raises :class:`InputFormatError` naming the file, line and field.
"""
