"""The features a game may have (press, votes, proxies, delays, held mail, corrections,
convoys, NMR, reminders, the sender check, alerts, ending a game...). Imports the game
and base floors."""
