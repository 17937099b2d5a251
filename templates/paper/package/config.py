"""Notebook NN_paper_template's parameters and its paper's decision register."""

from __future__ import annotations

from storrepro.suite.config import NotebookConfig, Param, Reading

#: The paper's words: "at half load a request spends twice its service time in the system".
MEAN_RESPONSE = 2.0
#: The paper's words: "at 90 % load it spends ten times its service time".
MEAN_AT_90 = 10.0


class PaperTemplateConfig(NotebookConfig):
    notebook = "NN_paper_template"
    title = "PaperTemplate"
    reproduces = "the template's one claim: a disk's mean response time at half load"
    paper = "The template's paper: one first-come-first-served disk at half load"
    paper_link = "https://en.wikipedia.org/wiki/M/M/1_queue"
    readings = {
        "service": Reading(
            question="How are the disk's service times distributed?",
            paper_words="'one disk' (the paper says no more of its service times)",
            primary="exponential",
            alternatives={"exponential": "exponential, mean 1 (the textbook's disk)",
                          "deterministic": "every request takes exactly 1"},
            argument="The paper's own result at 90 % load (ten service times) is possible "
            "with exponential service times and ruled out with equal ones (5.5 by the "
            "Pollaczek-Khinchine formula): the consistency record shows it.",
        ),
    }
    full_cost = (5.0, 300.0, 300.0)  # full s, quick and full peak MiB
    budget_s = (15.0, 20.0)  # quick, full
    params = {
        "requests": Param(int, 20_000, 200_000, "requests per replicate", low=1_000,
                          grows="time"),
        "replicates": Param(int, 3, 5, "independent replicates (the claims' intervals)", low=2,
                            high=64),
        "load": Param(float, 0.5, 0.5, "utilisation of the disk", low=0.05, high=0.95),
    }
