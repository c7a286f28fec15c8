// Oyuncu menüsü: takip, engelleme, şikâyet (community.js).
export default {
  "community.page": "Oyuncu sayfası",
  "community.follow": "Takip et",
  "community.unfollow": "Takibi bırak",
  "community.block": "Engelle",
  "community.unblock": "Engeli kaldır",
  "community.challenge": "Meydan oku",
  "community.report": "Şikâyet et",
  "community.reason": "Neden",
  "community.reason.abuse": "Hakaret veya taciz",
  "community.reason.spam": "İstenmeyen mesaj",
  "community.reason.cheating": "Hile",
  "community.reason.other": "Başka bir şey",
  "community.report.text": "Ne oldu? (isteğe bağlı)",
  "community.report.player": "{name} adlı oyuncuyu moderatörlere bildirin.",
  "community.report.message": "{name} adlı oyuncunun bu mesajını moderatörlere bildirin.",
  "community.reported": "Teşekkürler: moderatörler inceleyecek.",
};
