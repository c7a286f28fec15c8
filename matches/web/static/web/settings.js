// The player's settings, kept in this browser (localStorage), and the sounds the site ships
// (static/web/sounds/*.wav, small files made by tests/web/make_sounds.py).

const KEY = "tavla.settings";
const DEFAULTS = { autoRoll: false, autoPass: true, oneClick: false, speed: "normal", sound: true, turnBoard: false };
export const SPEEDS = { instant: 0, fast: 150, normal: 320, slow: 650 };

let current = null;

export function settings() {
  if (!current) {
    try {
      current = { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
    } catch {
      current = { ...DEFAULTS };
    }
  }
  return current;
}

export function change(name, value) {
  settings()[name] = value;
  localStorage.setItem(KEY, JSON.stringify(current));
}

/** Milliseconds a checker takes from point to point; none when the browser asks for less motion. */
export function stepTime() {
  if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return 0;
  return SPEEDS[settings().speed] ?? SPEEDS.normal;
}

const audio = {};
export function play(name) {
  if (!settings().sound) return;
  try {
    const a = audio[name] || (audio[name] = new Audio(new URL(`./sounds/${name}.wav`, import.meta.url)));
    a.currentTime = 0;
    const p = a.play();
    if (p) p.catch(() => {}); // before the first click the browser may refuse: a hint only
    document.body.dataset.sound = name; // the last sound asked for, for the tests
  } catch {
    /* no audio here */
  }
}
