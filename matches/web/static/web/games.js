// The games the site offers. The game is a setting of a new match: adding one (long nardy,
// issue 14) is a line here, its create field, and its board drawing.

export const GAMES = [
  { id: "tavla", api: "tavla", label: "game.tavla", available: true, create: {} },
  { id: "long_nardy", api: "long-nardy", label: "game.long_nardy", available: false, create: { game: "long-nardy" } },
];

// Quick pairing's clocks, by preset name (POST /seeks `clock`): the site clock. A deployment's
// own presets (TAVLA_CLOCK_PRESETS) are not listed by any endpoint, so the page offers this one.
export const CLOCK_PRESETS = ["site"];

export const MODES = ["computer", "hotseat", "online"];
export const LENGTHS = [1, 3, 5, 7];
