// The dashboard's only script of its own, loaded from this origin (the content security policy
// allows no inline script). Everything here is progressive: without it, the pages still work.
(() => {
  const format = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

  /** <time datetime="…Z"> shows UTC from the server; show it in the viewer's own time zone. */
  function localizeTimes(root) {
    for (const time of root.querySelectorAll("time[datetime]")) {
      if (time.dataset.localized) continue;
      const at = new Date(time.getAttribute("datetime"));
      if (Number.isNaN(at.getTime())) continue;
      time.title = time.getAttribute("datetime");
      time.textContent = format.format(at);
      time.dataset.localized = "1";
    }
  }

  // Forms marked data-confirm ask first (Revoke, Delete). Capture phase, so that htmx never sees a
  // submission the person cancelled.
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      const question = form instanceof HTMLFormElement ? form.dataset.confirm : undefined;
      if (question && !window.confirm(question)) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    },
    true,
  );

  // A select marked data-autosubmit applies its filter at once.
  document.addEventListener("change", (event) => {
    const field = event.target;
    if (field instanceof HTMLSelectElement && field.dataset.autosubmit !== undefined)
      field.form?.requestSubmit();
  });

  document.addEventListener("DOMContentLoaded", () => localizeTimes(document));
  // htmx swaps new HTML in: localize it too.
  document.addEventListener("htmx:load", (event) => localizeTimes(event.target));
})();
