// An enhancement only (the pages read the same without it): each deadline also in the viewer's
// own time zone, next to the game's zone and UTC the server wrote.
document.querySelectorAll("time[datetime]").forEach(function (element) {
  var moment = new Date(element.getAttribute("datetime"));
  if (isNaN(moment)) { return; }
  var note = document.createElement("span");
  note.className = "viewer-time";
  note.textContent = " (your time: " + moment.toLocaleString(undefined, {
    weekday: "long", day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit",
    timeZoneName: "short"}) + ")";
  element.parentNode.insertBefore(note, element.nextSibling);
});
