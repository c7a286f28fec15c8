// The games the site offers. The game is a setting of a new match (`game` in POST /matches
// and POST /seeks); the board draws each from `settings.game` of the state. Long nardy has no
// cube (RULES-LONG-NARDY.md): the form hides it and asks for none.

export const GAMES = [
  { id: "tavla", api: "tavla", label: "game.tavla", available: true, cube: true, create: {} },
  { id: "long_nardy", api: "long-nardy", label: "game.long_nardy", available: true, cube: false, create: { game: "long-nardy" } },
];

export const gameOf = (api) => GAMES.find((g) => g.api === api) || GAMES[0];

// Quick pairing's clocks, by preset name (POST /seeks `clock`): the site clock. A deployment's
// own presets (TAVLA_CLOCK_PRESETS) are not listed by any endpoint, so the page offers this one.
export const CLOCK_PRESETS = ["site"];

export const MODES = ["computer", "hotseat", "online"];
export const LENGTHS = [1, 3, 5, 7];
