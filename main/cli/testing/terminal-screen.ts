/**
 * Test support: what a person would see on a terminal after these bytes, as a VT100-style
 * terminal draws them (printable text overwrites, CR returns, BS steps back, CSI moves the
 * cursor and erases). Lines are not wrapped; colours and modes are ignored.
 */
export function terminalScreen(bytes: string): string {
  const rows: string[][] = [[]];
  let r = 0;
  let c = 0;
  const row = () => (rows[r] ??= []);
  const erase = (from: number, to: number) => {
    const line = row();
    for (let i = from; i < Math.min(to, line.length); i++) line[i] = " ";
  };
  const chars = Array.from(bytes);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (ch === "\r") c = 0;
    else if (ch === "\n") r++;
    else if (ch === "\b") c = Math.max(0, c - 1);
    else if (ch === "\t") c = (Math.floor(c / 8) + 1) * 8;
    else if (ch === "\x1b") {
      const next = chars[i + 1];
      if (next === "[") {
        let j = i + 2;
        let params = "";
        while (j < chars.length && !/[@-~]/.test(chars[j])) params += chars[j++];
        const n = Number.parseInt(params.replace(/^\?/, ""), 10);
        const count = Number.isNaN(n) || n === 0 ? 1 : n;
        switch (chars[j]) {
          case "A":
            r = Math.max(0, r - count);
            break;
          case "B":
            r += count;
            break;
          case "C":
            c += count;
            break;
          case "D":
            c = Math.max(0, c - count);
            break;
          case "G":
            c = count - 1;
            break;
          case "K":
            if (params === "" || params === "0") erase(c, Infinity);
            else if (params === "1") erase(0, c + 1);
            else erase(0, Infinity);
            break;
          case "J":
            if (params === "2" || params === "3") rows.length = 0;
            else {
              erase(c, Infinity);
              rows.length = Math.min(rows.length, r + 1);
            }
            break;
          case "H": {
            const [y, x] = params.split(";").map((p) => Number.parseInt(p, 10) || 1);
            r = (y ?? 1) - 1;
            c = (x ?? 1) - 1;
            break;
          }
          default:
            break; // colours, modes
        }
        i = j;
      } else if (next === "]") {
        // An OSC string, ended by BEL or ST.
        let j = i + 2;
        while (
          j < chars.length &&
          chars[j] !== "\x07" &&
          !(chars[j] === "\x1b" && chars[j + 1] === "\\")
        )
          j++;
        i = chars[j] === "\x07" ? j : j + 1;
      } else i++;
    } else if (ch >= " " && ch !== "\x7f") {
      const line = row();
      while (line.length < c) line.push(" ");
      line[c++] = ch;
    }
  }
  return Array.from(rows, (line) => (line ?? []).join("").trimEnd()).join("\n");
}
