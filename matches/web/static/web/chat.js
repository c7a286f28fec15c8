// The chat beside an online match's board: `say` between the players, kibitz among the
// spectators (a player's only once he switches it on), quick messages in the reader's
// language, a mute of the opponent kept for the match. Pushed on the page's socket, read again
// after each reconnection (every 3 s when sockets are blocked). Messages are text, never markup.

import * as api from "./api.js";
import { loadStrings, t } from "./i18n.js";
import * as live from "./live.js";
import { currentAccount } from "./lobby.js";
import { bdi, h, showError, withName } from "./ui.js";

const QUICK = ["good_luck", "well_played", "thanks", "sorry_connection"];
const muteKey = (id) => `tavla.chat.mute.${id}`;

export async function chatPanel(screen) {
  await loadStrings("chat");
  return new Chat(screen);
}

class Chat {
  constructor(screen) {
    this.screen = screen;
    this.id = screen.id;
    this.messages = new Map(); // id -> ChatMessage
    this.last = 0;
    this.kibitz = false;
    this.muted = localStorage.getItem(muteKey(this.id)) === "1";
    this.input = h("input", { name: "text", maxlength: "300", dir: "auto", autocomplete: "off" });
    this.list = h("ol", { class: "chat-messages", role: "log" });
    this.node = h("section", { class: "chat", id: "chat" });
    this.onName = (e) => this.name(e);
    ["click", "keydown"].forEach((k) => screen.root.addEventListener(k, this.onName));
    this.relabel();
    this.unshare = live.share({ hello: (send) => this.hello(send), receive: (m) => this.receive(m) });
    this.poller = setInterval(() => live.isBlocked() && this.read(), 3000);
    this.read();
  }

  get role() {
    return this.screen.state.side.role;
  }

  get me() {
    return currentAccount()?.username;
  }

  stop() {
    this.unshare();
    clearInterval(this.poller);
    ["click", "keydown"].forEach((k) => this.screen.root.removeEventListener(k, this.onName));
  }

  hello(send) {
    this.send = send;
    if (this.kibitz) this.switch();
    this.read(); // what was said meanwhile
  }

  switch() {
    this.send?.({ type: "kibitz_switch", match: this.id, on: this.kibitz });
  }

  receive(msg) {
    if (msg.type !== "chat" || msg.match !== this.id) return false;
    this.add([msg.message]);
    return true;
  }

  async read(after = this.last) {
    try {
      const kibitz = this.role !== "player" || this.kibitz;
      this.add((await api.get(`/matches/${this.id}/chat${api.query({ after, kibitz })}`, { once: true })).messages);
    } catch {
      /* the next connection or poll reads again */
    }
  }

  add(messages) {
    const fresh = messages.filter((m) => !this.messages.has(m.id));
    for (const m of fresh) {
      this.messages.set(m.id, m);
      this.last = Math.max(this.last, m.id);
    }
    if (fresh.length) this.draw();
  }

  /** Kibitz only for a player who asked; not his muted opponent's words. */
  hidden(m) {
    if (this.role !== "player") return false;
    return m.channel === "kibitz" ? !this.kibitz : this.muted && m.author.name !== this.me;
  }

  line(m) {
    const a = m.author;
    const mine = a.name === this.me;
    const quick = m.quick && t(`chat.quick.${m.quick}`);
    return h("li", { "data-id": m.id, "data-channel": m.channel, class: `${m.channel}${mine ? " mine" : ""}` },
      m.channel === "kibitz" ? h("span", { class: "tag", text: t("chat.kibitz.tag") }) : null,
      mine ? bdi(a.display_name, { class: "author" })
        : h("button", { type: "button", class: "author link", "data-chat-author": a.name, "data-message": m.id }, bdi(a.display_name)),
      ": ", h("span", { class: "text", dir: "auto", "data-quick": m.quick, text: m.quick ? (quick.startsWith("chat.") ? m.quick : quick) : m.text }));
  }

  draw() {
    const shown = [...this.messages.values()].sort((a, b) => a.id - b.id).filter((m) => !this.hidden(m));
    this.list.replaceChildren(...(shown.length ? shown.map((m) => this.line(m)) : [h("li", { class: "small", text: t("chat.none") })]));
    this.list.dataset.count = shown.length;
    this.list.scrollTop = this.list.scrollHeight;
  }

  /** Where the viewer writes: nowhere anonymous or in hot-seat. */
  channel() {
    if (!currentAccount()) return null;
    return { player: "say", spectator: "kibitz" }[this.role] || null;
  }

  /** A rated match being played keeps kibitz from its players. */
  closed() {
    const s = this.screen.state;
    return s.settings.rated && s.status === "active";
  }

  /** The panel in the page's language (again after it changed). */
  relabel() {
    const channel = this.channel();
    const s = this.screen.state;
    this.input.placeholder = t(channel === "kibitz" ? "chat.to.kibitz" : "chat.to");
    this.input.setAttribute("aria-label", this.input.placeholder);
    const check = (setting, on, label, change, disabled) => h("label", { class: "check" },
      h("input", { type: "checkbox", "data-setting": setting, checked: on, disabled, onchange: (e) => change(e.target.checked) }), " ", ...label);
    const other = s.players.find((p) => p && p.username !== this.me);
    this.was = this.looks();
    this.node.replaceChildren(...[
      h("h2", { text: t(this.role === "player" ? "chat.title" : "chat.title.all") }),
      this.list,
      ...channel ? [
        h("div", { class: "chat-quick" }, QUICK.map((q) => h("button", { type: "button", "data-quick": q, onclick: () => this.say({ quick: q }) }, t(`chat.quick.${q}`)))),
        h("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); this.say({ text: this.input.value.trim() }); } },
          this.input, h("button", { type: "submit", "data-action": "chat-send" }, t("chat.send"))),
      ] : [h("p", { class: "small", text: t("chat.signin") })],
      this.role === "player" ? h("div", { class: "chat-options" },
        check("kibitz", this.kibitz, [t(this.closed() ? "chat.kibitz.closed" : "chat.kibitz.show")], (on) => this.setKibitz(on), this.closed()),
        other ? check("mute", this.muted, withName("chat.mute", other.display_name || other.username), (on) => this.setMuted(on)) : null) : null].filter(Boolean));
    this.draw();
  }

  /** What the panel shows: an opponent came, a rated match ended. */
  looks() {
    return `${this.closed()} ${this.screen.state.players.map((p) => p?.username)}`;
  }

  update() {
    if (this.looks() !== this.was) this.relabel();
  }

  async say(body) {
    if (body.text === "") return;
    try {
      this.add([await api.post(`/matches/${this.id}/chat`, { channel: this.channel(), ...body })]);
      if (body.text) this.input.value = "";
    } catch (err) {
      showError(api.friendly(err));
    }
  }

  setKibitz(on) {
    this.kibitz = on;
    this.switch();
    if (on) this.read(0); // what the spectators said before
    this.draw();
  }

  setMuted(on) {
    this.muted = on;
    localStorage[on ? "setItem" : "removeItem"](muteKey(this.id), "1");
    this.draw();
  }

  /** A name clicked, in the chat or beside the board: the player's menu. */
  async name(e) {
    const el = e.target.closest("[data-chat-author], .match [data-player]");
    if (!el || (e.type === "keydown" && (e.key !== "Enter" || el.tagName === "BUTTON"))) return;
    const name = el.dataset.chatAuthor || el.dataset.player;
    const message = Number(el.dataset.message) || null;
    const who = message ? this.messages.get(message).author : { name, display_name: el.textContent };
    (await import("./community.js")).playerMenu(el, who, { message, match: this.id });
  }
}
