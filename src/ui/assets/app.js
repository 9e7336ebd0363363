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

  // A search box marked data-filters="<id of a select>" narrows that list as one types (the saved
  // reply picker). It is hidden in the page, since without this script it would do nothing.
  const folded = (text) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  const filteredList = (input) => document.getElementById(input.dataset.filters);
  const shownOptions = (list) => [...list.options].filter((option) => !option.hidden);

  function showFilters(root) {
    for (const input of root.querySelectorAll("input[data-filters]"))
      input.closest("[hidden]")?.removeAttribute("hidden");
  }

  /** Hides (and disables, so that arrows skip them) the options not matching every typed word. */
  function applyFilter(input) {
    const list = filteredList(input);
    if (!(list instanceof HTMLSelectElement)) return;
    const words = folded(input.value).split(/\s+/).filter(Boolean);
    for (const option of list.options) {
      const name = folded(option.textContent);
      option.hidden = option.disabled = !words.every((word) => name.includes(word));
    }
    const shown = shownOptions(list);
    // The first match is chosen, so that Enter in the box inserts it.
    const chosen = list.selectedOptions[0];
    if (!chosen || chosen.hidden) list.selectedIndex = shown[0]?.index ?? -1;
    const count = document.querySelector(`[data-filter-count="${list.id}"]`);
    if (count)
      count.textContent =
        words.length === 0
          ? ""
          : shown.length === 0
            ? "Nothing matches."
            : `${shown.length} of ${list.options.length} match.`;
  }

  document.addEventListener("input", (event) => {
    if (event.target instanceof HTMLInputElement && event.target.dataset.filters) applyFilter(event.target);
  });

  document.addEventListener("keydown", (event) => {
    const field = event.target;
    // Up and down from the box go into the list, on the chosen (or first shown) option.
    if (
      field instanceof HTMLInputElement &&
      field.dataset.filters &&
      (event.key === "ArrowDown" || event.key === "ArrowUp")
    ) {
      const list = filteredList(field);
      if (!(list instanceof HTMLSelectElement) || shownOptions(list).length === 0) return;
      event.preventDefault();
      if (list.selectedIndex < 0) list.selectedIndex = shownOptions(list)[0].index;
      list.focus();
    }
    // A list (select with size) marked data-enter-submits sends its form on Enter, as a box does.
    if (
      field instanceof HTMLSelectElement &&
      field.dataset.enterSubmits !== undefined &&
      event.key === "Enter"
    ) {
      event.preventDefault();
      field.form?.requestSubmit();
    }
  });

  // A ticket page says every few seconds that this person has it open, and whether they are
  // writing a reply; the answer lists the others there (docs/collision.md). Names are set as text.
  function watchPresence() {
    const line = document.querySelector("[data-presence]");
    if (!line) return;
    const url = line.dataset.presence;
    const box = document.querySelector("form.compose textarea");
    const csrf = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRF-Token"] || "";
    const stateNow = () => (box && box.value.trim() !== "" ? "replying" : "viewing");
    let timer;
    let sent = "";
    async function beat() {
      clearTimeout(timer);
      sent = stateNow();
      let wait = 5000;
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { "X-CSRF-Token": csrf },
          body: new URLSearchParams({ state: sent }),
        });
        if (response.ok) {
          const answer = await response.json();
          wait = answer.heartbeat_ms;
          const others = answer.others.map(
            (o) => `${o.name} (${o.state === "replying" ? "replying" : "viewing"})`,
          );
          line.textContent = others.length > 0 ? `Also here: ${others.join(", ")}` : "";
          line.hidden = others.length === 0;
        }
      } catch {
        // Offline for a moment: the next heartbeat tries again.
      }
      timer = setTimeout(beat, wait);
    }
    // Starting or clearing a reply is news for the others at once, not at the next heartbeat.
    box?.addEventListener("input", () => {
      if (stateNow() !== sent) beat();
    });
    window.addEventListener("pagehide", () => {
      navigator.sendBeacon(url, new URLSearchParams({ state: "gone", _csrf: csrf }));
    });
    beat();
  }

  function enhance(root) {
    localizeTimes(root);
    showFilters(root);
  }

  document.addEventListener("DOMContentLoaded", () => {
    enhance(document);
    watchPresence();
  });
  // htmx swaps new HTML in: enhance it too.
  document.addEventListener("htmx:load", (event) => enhance(event.target));
})();
