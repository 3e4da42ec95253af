"""The user's tools and the pages generated for them, above the run's plumbing (``workflow``): the plan of a run
before it starts (``plan``, ``bin/plan``; its forecasts: ``forecast``), the machine's check (``doctor``,
``bin/doctor``), the forecast a local run prints at its start (``run_forecast``), the rule graph's picture
(``rulegraph``) and the generated pages of docs/ (``plan_page``, ``results_page``)."""
