// The hint on the match screen (GET /matches/{id}/hint): where the match allows hints
// (settings.hints: against the computer, hot-seat, unrated matches created with hints), a
// "Hint" button beside the actions shows the best plays of the dice out, best first, with
// their equities and what each loses. Loaded by match.js when the player has a play to make.

import * as api from "./api.js";
import { loadStrings, t } from "./i18n.js";
import { h, showError } from "./ui.js";

/** Adds the button to the match screen's actions (once per render). */
export async function offer(view) {
  await loadStrings("analysis");
  const actions = view.dom.actions;
  if (actions.querySelector("[data-action=hint]")) return;
  const box = h("div", { class: "hints", "data-hints": "" });
  const button = h("button", { type: "button", "data-action": "hint" }, t("analysis.hint"));
  button.onclick = async () => {
    try {
      const body = await api.get(`/matches/${view.id}/hint`);
      box.replaceChildren(h("strong", { text: t("analysis.hints") }),
        body.plays.length
          ? h("ol", {}, body.plays.map((p) => h("li", { "data-play": p.play, text: `${p.play}  ${p.equity >= 0 ? "+" : ""}${p.equity.toFixed(3)}${p.error ? `  (−${p.error.toFixed(3)})` : ""}` })))
          : h("p", { class: "small", text: t("analysis.roll") }));
    } catch (err) {
      showError(api.friendly(err));
    }
  };
  actions.append(button, box);
}
