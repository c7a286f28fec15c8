// Ćaskanje pored table (chat.js).
export default {
  "chat.title": "Ćaskanje",
  "chat.title.all": "Ćaskanje: igrači i posmatrači",
  "chat.none": "Još nema poruka.",
  "chat.to": "Poruka protivniku",
  "chat.to.kibitz": "Poruka posmatračima",
  "chat.send": "Pošalji",
  "chat.signin": "Prijavite se ili igrajte kao gost da biste ćaskali.",
  "chat.quick.good_luck": "Srećno!",
  "chat.quick.well_played": "Dobro odigrano!",
  "chat.quick.thanks": "Hvala!",
  "chat.quick.sorry_connection": "Izvinite, veza mi je loša.",
  "chat.kibitz.show": "Prikaži ćaskanje posmatrača",
  "chat.kibitz.closed": "Ćaskanje posmatrača: kad se ovaj rangirani meč završi",
  "chat.kibitz.tag": "posmatrač",
  "chat.mute": "Utišaj igrača {name} u ovom meču",
};
