export default {
  "leaderboard.caption": "{game}: players by rating",
  "leaderboard.rank": "Rank",
  "leaderboard.player": "Player",
  "leaderboard.rating": "Rating",
  "leaderboard.matches": "Matches",
  "leaderboard.record": "Won–lost",
  "leaderboard.none": "No rated matches yet.",
  "leaderboard.note": "Registered players with a rated match: online matches to a number of points, FIBS ratings.",
};
