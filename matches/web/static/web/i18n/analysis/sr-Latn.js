// The post-game analysis and the hint (analysis.js, hint.js, the player's PR).
export default {
  "analysis.analyse": "Analiziraj",
  "analysis.running": "Analiza u toku…",
  "analysis.failed": "Analiza nije uspela: {error}",
  "analysis.graph": "Ekvitet igrača {name} posle svake odluke",
  "analysis.player": "Igrač",
  "analysis.pr": "PR",
  "analysis.rate": "Stopa grešaka",
  "analysis.luck": "Sreća",
  "analysis.marks": "Sumnjivo / loše / vrlo loše",
  "analysis.best": "najbolje: {play}",
  "analysis.hint": "Savet",
  "analysis.hints": "Najbolji potezi",
  "analysis.roll": "Prvo bacite kockice.",
  "analysis.prLine": "PR {pr} u {n} analiziranih rejting mečeva (manje je bolje)",
  "analysis.prChart": "PR svakog analiziranog rejting meča",
};
