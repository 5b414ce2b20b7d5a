// The index rail: tap or drag to jump, arrow keys to move, Enter to jump. Without the script its
// letters are links to the list from that section on.

import { doc, state } from "./page.js";
import { rememberPlaceSoon } from "./lists.js";

export function startRail() {
  const rail = doc.getElementById("rail");
  if (!rail) return;
  let active = null;
  let touched = false;
  const jump = (link, focus) => {
    const label = link.dataset.target || link.dataset.label;
    const windowed = state.list;
    if (windowed && windowed.kind === "positions" && windowed.scrollToLabel(label)) {
      if (focus) {
        requestAnimationFrame(() => {
          const header = doc.getElementById("s-" + label)?.closest("li");
          let next = header?.nextElementSibling;
          const start = windowed.sections.find((section) => section.label === label)?.start;
          next = windowed.rendered.get(start) || next;
          next?.querySelector(".row-link")?.focus({ preventScroll: true });
        });
      }
      rememberPlaceSoon();
    } else {
      location.assign(link.href);
    }
  };
  const linkAt = (y) => {
    const box = rail.getBoundingClientRect();
    return doc.elementFromPoint(box.left + box.width / 2, Math.min(Math.max(y, box.top + 1), box.bottom - 1))
      ?.closest("#rail a");
  };
  rail.addEventListener("click", (event) => {
    const link = event.target.closest("a");
    event.preventDefault();
    if (touched) { touched = false; return; }
    if (link) jump(link, event.detail === 0);
  });
  // Touch and pen: the section under the finger shows at once, and follows it while it drags.
  const follow = (event) => {
    const link = linkAt(event.clientY);
    if (!link || link === active) return;
    active?.classList.remove("active");
    active = link;
    link.classList.add("active");
    jump(link, false);
  };
  rail.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") return;
    event.preventDefault();
    touched = true;
    rail.setPointerCapture(event.pointerId);
    follow(event);
  });
  rail.addEventListener("pointermove", (event) => {
    if (rail.hasPointerCapture(event.pointerId)) follow(event);
  });
  const release = () => {
    active?.classList.remove("active");
    active = null;
    setTimeout(() => { touched = false; }, 400);
  };
  rail.addEventListener("pointerup", release);
  rail.addEventListener("pointercancel", release);
  // One Tab stop for the whole rail (the letter used last); arrows, Home and End move in it.
  const railLinks = Array.from(rail.querySelectorAll("a"));
  const rove = (link) => { for (const other of railLinks) other.tabIndex = other === link ? 0 : -1; };
  rove(railLinks[0]);
  rail.addEventListener("focusin", (event) => { if (railLinks.includes(event.target)) rove(event.target); });
  rail.addEventListener("keydown", (event) => {
    const index = railLinks.indexOf(event.target);
    if (index < 0) return;
    const moves = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: railLinks.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    railLinks[Math.max(0, Math.min(moves[event.key], railLinks.length - 1))].focus();
  });
}
