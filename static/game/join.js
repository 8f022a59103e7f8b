// The room page's join form: one button, "Join as Bea", saying the name typed beside it.

const name = document.getElementById("join_nickname");
const join = document.getElementById("join-btn");
if (name && join) {
  const label = () => {
    const typed = name.value.trim();
    join.textContent = typed ? `Join as ${typed}` : "Join";
  };
  name.addEventListener("input", label);
  label();
}
