"""The game floor: games, players, order sets, the schedule, filing an order set, the
end-of-game decisions. Imports the base floor only."""
