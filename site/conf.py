"""Sphinx configuration of the readers' site (``make site``).

``storrepro.suite.site`` writes the pages of ``build/site-src`` from the committed results — one
page per paper, a landing page — and copies this folder's configuration and style beside them;
myst-nb renders the executed notebooks kept in ``results/executed`` without running them.
Nothing is fetched from the network: no web fonts, no MathJax, no widget scripts.
"""

from docutils.nodes import SkipNode

project = "storrepro"
author = "the storrepro team"
html_title = "storrepro — reproductions of five cloud-storage papers"

extensions = ["myst_nb"]
exclude_patterns = ["_build"]
suppress_warnings = ["mystnb.unknown_mime_type", "misc.highlighting_failure"]

# The executed notebooks are rendered as they are: never re-run, no progress bars.
nb_execution_mode = "off"
nb_output_stderr = "remove"
nb_merge_streams = True
nb_ipywidgets_js = {}  # widget views need a kernel; their default output is shown beside them

html_theme = "sphinx_book_theme"
html_theme_options = {
    "show_toc_level": 2,
    "use_download_button": True,  # a rendered notebook offers its .ipynb
    "use_fullscreen_button": False,
    "home_page_in_toc": True,
}
html_context = {"default_mode": "light"}  # the theme's mode switch starts from a valid mode
html_favicon = "_static/favicon.svg"
html_static_path = ["_static"]
html_css_files = ["storrepro.css"]
html_js_files = ["claims.js"]
html_extra_path = ["extra"]  # figures/<notebook>/*.png|svg at the site's root, linked full size
html_copy_source = True  # the download button's .ipynb is the copied source
html_show_sourcelink = False
html_last_updated_fmt = None
html_math_renderer = "plain"  # LaTeX shown as written: MathJax would load from the network


def _math_visit(self, node):
    tag = "div" if node.tagname == "math_block" else "span"
    self.body.append(f'<{tag} class="math">{self.encode(node.astext())}</{tag}>')
    raise SkipNode


def setup(app):
    app.add_html_math_renderer(
        "plain", inline_renderers=(_math_visit, None), block_renderers=(_math_visit, None)
    )
