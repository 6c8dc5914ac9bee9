// The machine's HTTP ceiling: the least a Node server can do per request.
import http from "node:http";

const body = "hello";
http
  .createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain", "content-length": body.length });
    res.end(body);
  })
  .listen(Number(process.argv[2]), "127.0.0.1", () => process.send?.("ready"));
