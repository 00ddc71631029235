// static/js/live/ice-servers.js under Node for tests/test_ice_servers.py: the checks of the MJ's
// TURN setting and of the servers an invitation carries.
import { checkRemote, checkServers } from "../../static/js/live/ice-servers.js";
import { serveLines } from "./lines.mjs";

serveLines({
  remote: ({ fields }) => checkRemote(fields),
  servers: ({ servers }) => checkServers(servers),
});
