"""The suite's machinery, shared by every notebook: the runner and its parameters, the one
way to record a claim and its verdict, the decision register and its dates, the scorecard,
site, README blocks and benchmark, the data sets and real traces. It imports no paper."""
