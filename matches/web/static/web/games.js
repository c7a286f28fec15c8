// The games the site offers. The game is a setting of a new match: adding one (long nardy,
// issue 14) is a line here, its create field, and its board drawing.

export const GAMES = [
  { id: "tavla", label: "game.tavla", available: true, create: {} },
  { id: "long_nardy", label: "game.long_nardy", available: false, create: { game: "long_nardy" } },
];

export const MODES = ["computer", "hotseat", "online"];
export const LENGTHS = [1, 3, 5, 7];
