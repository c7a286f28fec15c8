// A player's menu: follow, block, report (community.js).
export default {
  "community.page": "Player page",
  "community.follow": "Follow",
  "community.unfollow": "Unfollow",
  "community.block": "Block",
  "community.unblock": "Unblock",
  "community.challenge": "Challenge",
  "community.report": "Report",
  "community.reason": "Reason",
  "community.reason.abuse": "Abuse or insults",
  "community.reason.spam": "Spam",
  "community.reason.cheating": "Cheating",
  "community.reason.other": "Something else",
  "community.report.text": "What happened (optional)",
  "community.report.player": "Report {name} to the moderators.",
  "community.report.message": "Report this message by {name} to the moderators.",
  "community.reported": "Thank you: the moderators will look at it.",
};
