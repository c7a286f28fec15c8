export default {
  "leaderboard.caption": "{game}: igrači po rejtingu",
  "leaderboard.rank": "Mesto",
  "leaderboard.player": "Igrač",
  "leaderboard.rating": "Rejting",
  "leaderboard.matches": "Mečevi",
  "leaderboard.record": "Pobede–porazi",
  "leaderboard.none": "Još nema rangiranih mečeva.",
  "leaderboard.note": "Registrovani igrači sa bar jednim rangiranim mečom: onlajn mečevi do određenog broja poena, FIBS rejting.",
};
