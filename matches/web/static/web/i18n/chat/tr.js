// Tahtanın yanındaki sohbet (chat.js).
export default {
  "chat.title": "Sohbet",
  "chat.title.all": "Sohbet: oyuncular ve izleyiciler",
  "chat.none": "Henüz mesaj yok.",
  "chat.to": "Rakibinize mesaj",
  "chat.to.kibitz": "İzleyicilere mesaj",
  "chat.send": "Gönder",
  "chat.signin": "Sohbet için giriş yapın ya da misafir olarak oynayın.",
  "chat.quick.good_luck": "İyi şanslar!",
  "chat.quick.well_played": "İyi oyundu!",
  "chat.quick.thanks": "Teşekkürler!",
  "chat.quick.sorry_connection": "Kusura bakmayın, bağlantım kötü.",
  "chat.kibitz.show": "İzleyici sohbetini göster",
  "chat.kibitz.closed": "İzleyici sohbeti: bu dereceli maç bitince",
  "chat.kibitz.tag": "izleyici",
  "chat.mute": "Bu maçta {name} adlı oyuncuyu sessize al",
};
