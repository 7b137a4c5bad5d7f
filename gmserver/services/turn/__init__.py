"""The turn: the one deadline orchestrator (turns), the adjudication's inputs and the
preview. Imports the floors below."""
