// The chat beside the board (chat.js).
export default {
  "chat.title": "Chat",
  "chat.title.all": "Chat: players and spectators",
  "chat.none": "No messages yet.",
  "chat.to": "Message to your opponent",
  "chat.to.kibitz": "Message to the spectators",
  "chat.send": "Send",
  "chat.signin": "Log in or play as a guest to chat.",
  "chat.quick.good_luck": "Good luck!",
  "chat.quick.well_played": "Well played!",
  "chat.quick.thanks": "Thanks!",
  "chat.quick.sorry_connection": "Sorry, my connection is bad.",
  "chat.kibitz.show": "Show the spectators' chat",
  "chat.kibitz.closed": "Spectators' chat: once this rated match ends",
  "chat.kibitz.tag": "spectator",
  "chat.mute": "Mute {name} in this match",
};
