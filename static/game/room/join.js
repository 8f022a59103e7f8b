// The room page's join form: one button, "Join as Bea", saying the name typed beside it.
import { gettext, interpolate } from "../shared/i18n.js";

const name = document.getElementById("join_nickname");
const join = document.getElementById("join-btn");
if (name && join) {
  const label = () => {
    const typed = name.value.trim();
    join.textContent = typed ? interpolate(gettext("Join as %(name)s"), { name: typed }) : gettext("Join");
  };
  name.addEventListener("input", label);
  label();
}
