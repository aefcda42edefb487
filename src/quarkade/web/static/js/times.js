// Every page: dates and times the server wrote are shown in the viewer's own locale.
import { localizeTimes } from "./common.js";

localizeTimes();
