// Preloaded into test servers (NODE_OPTIONS=--require): marks every answer written without
// Express (Express gives each response `res.locals`), so a test can tell which path answered.
const http = require("node:http");

const writeHead = http.ServerResponse.prototype.writeHead;
http.ServerResponse.prototype.writeHead = function (status, ...rest) {
  if (this.locals === undefined) {
    const at = rest.findIndex((arg) => Array.isArray(arg));
    // A copy: the list passed may be one the server keeps.
    if (at !== -1) rest[at] = [...rest[at], "X-Test-Front-Door", "1"];
    else if (!this.headersSent) this.setHeader("X-Test-Front-Door", "1");
  }
  return writeHead.call(this, status, ...rest);
};
