// The post-game analysis and the hint (analysis.js, hint.js, the player's PR).
export default {
  "analysis.analyse": "Analiz et",
  "analysis.running": "Analiz ediliyor…",
  "analysis.failed": "Analiz başarısız oldu: {error}",
  "analysis.graph": "Her karardan sonra {name} oyuncusunun ekuitisi",
  "analysis.player": "Oyuncu",
  "analysis.pr": "PR",
  "analysis.rate": "Hata oranı",
  "analysis.luck": "Şans",
  "analysis.marks": "Şüpheli / kötü / çok kötü",
  "analysis.best": "en iyisi: {play}",
  "analysis.hint": "İpucu",
  "analysis.hints": "En iyi hamleler",
  "analysis.roll": "Önce zar atın.",
  "analysis.prLine": "Analiz edilmiş {n} reytingli maçta PR {pr} (düşük olan daha iyi)",
  "analysis.prChart": "Analiz edilmiş her reytingli maçın PR'ı",
};
