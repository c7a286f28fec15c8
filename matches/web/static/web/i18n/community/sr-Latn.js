// Meni igrača: praćenje, blokiranje, prijava (community.js).
export default {
  "community.page": "Stranica igrača",
  "community.follow": "Prati",
  "community.unfollow": "Ne prati više",
  "community.block": "Blokiraj",
  "community.unblock": "Odblokiraj",
  "community.challenge": "Izazovi",
  "community.report": "Prijavi",
  "community.reason": "Razlog",
  "community.reason.abuse": "Vređanje ili uznemiravanje",
  "community.reason.spam": "Spam",
  "community.reason.cheating": "Varanje",
  "community.reason.other": "Nešto drugo",
  "community.report.text": "Šta se desilo (nije obavezno)",
  "community.report.player": "Prijavite igrača {name} moderatorima.",
  "community.report.message": "Prijavite ovu poruku igrača {name} moderatorima.",
  "community.reported": "Hvala: moderatori će to pogledati.",
};
