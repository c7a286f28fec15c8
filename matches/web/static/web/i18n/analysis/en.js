// The post-game analysis and the hint (analysis.js, hint.js, the player's PR).
export default {
  "analysis.analyse": "Analyse",
  "analysis.running": "Analysing…",
  "analysis.failed": "The analysis failed: {error}",
  "analysis.graph": "Equity of {name} after each decision",
  "analysis.player": "Player",
  "analysis.pr": "PR",
  "analysis.rate": "Error rate",
  "analysis.luck": "Luck",
  "analysis.marks": "Doubtful / bad / very bad",
  "analysis.best": "best: {play}",
  "analysis.hint": "Hint",
  "analysis.hints": "Best plays",
  "analysis.roll": "Roll first.",
  "analysis.prLine": "PR {pr} over {n} analysed rated matches (lower is better)",
  "analysis.prChart": "PR of each analysed rated match",
};
