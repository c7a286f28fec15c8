export default {
  "leaderboard.caption": "{game}: puana göre oyuncular",
  "leaderboard.rank": "Sıra",
  "leaderboard.player": "Oyuncu",
  "leaderboard.rating": "Puan",
  "leaderboard.matches": "Maçlar",
  "leaderboard.record": "Galibiyet–mağlubiyet",
  "leaderboard.none": "Henüz dereceli maç yok.",
  "leaderboard.note": "En az bir dereceli maçı olan kayıtlı oyuncular: belirli puana kadar çevrimiçi maçlar, FIBS puanı.",
};
