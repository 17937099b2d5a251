// Filter the claims table by role, verdict and text; sort a table by clicking its header.
// Local script, no library, nothing fetched.
document.addEventListener("DOMContentLoaded", () => {
  for (const form of document.querySelectorAll(".claim-filter")) {
    const table = document.getElementById(form.dataset.table);
    const apply = () => {
      const role = form.querySelector("[name=role]").value;
      const verdict = form.querySelector("[name=verdict]").value;
      const text = form.querySelector("[name=text]").value.toLowerCase();
      for (const row of table.tBodies[0].rows) {
        const show = (!role || row.dataset.role === role) &&
          (!verdict || row.dataset.verdict === verdict) &&
          (!text || row.innerText.toLowerCase().includes(text));
        row.hidden = !show;
      }
    };
    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
  }
  for (const table of document.querySelectorAll("table.sortable")) {
    table.tHead.rows[0].querySelectorAll("th").forEach((th, column) => {
      th.addEventListener("click", (event) => {
        if (event.target.closest("a")) return;  // a header's glossary link, not a sort
        const rows = [...table.tBodies[0].rows];
        const up = th.dataset.order !== "up";
        th.dataset.order = up ? "up" : "down";
        rows.sort((a, b) => a.cells[column].innerText.localeCompare(
          b.cells[column].innerText, undefined, {numeric: true}) * (up ? 1 : -1));
        rows.forEach((row) => table.tBodies[0].appendChild(row));
      });
    });
  }
});
