/// The playground's page: plain HTML and JavaScript, no build step. Sliders come from the recipe schema (each
/// numeric parameter's minimum, maximum and default, as the catalogue declares them); every change asks the server
/// for a preview, and the last answer wins.
enum PlaygroundPage {
    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <title>filterserve playground</title>
    <style>
      body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #222; }
      header { padding: 8px 16px; background: #223; color: #fff; }
      main { display: grid; grid-template-columns: minmax(320px, 1fr) 2fr; gap: 16px; padding: 16px; }
      textarea { width: 100%; height: 260px; font: 12px/1.4 ui-monospace, monospace; box-sizing: border-box; }
      #problems { color: #b00; white-space: pre-wrap; min-height: 1.4em; }
      .slider { display: grid; grid-template-columns: 10em 1fr 5em; gap: 8px; align-items: center; }
      #preview { max-width: 100%; background: repeating-conic-gradient(#ddd 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
      #preview[data-stale="true"] { opacity: 0.35; outline: 3px dashed #c00; }
      pre { background: #f4f4f6; padding: 8px; overflow: auto; font-size: 12px; white-space: pre-wrap; word-break: break-all; }
    </style>
    </head>
    <body>
    <header>filterserve playground</header>
    <main>
      <section>
        <p><label>Source <select id="source"></select></label>
           <label>or upload <input type="file" id="upload" accept="image/*"></label></p>
        <p><label>Start from <select id="preset"></select></label></p>
        <textarea id="recipe" spellcheck="false" aria-label="recipe JSON"></textarea>
        <div id="problems" role="alert"></div>
        <div id="sliders"></div>
      </section>
      <section>
        <img id="preview" alt="preview">
        <h3>Last render</h3><pre id="stats"></pre>
        <details><summary>Plan</summary><pre id="explain"></pre></details>
        <h3>Signed request</h3>
        <p><button id="copy">Copy</button></p><pre id="signed">(the server has no signing key)</pre>
      </section>
    </main>
    <script>
    const $ = (id) => document.getElementById(id);
    const ops = {};
    let presets = {}, timer = 0, asked = 0, renders = 0;

    const steps = (recipe) => recipe.steps || recipe.nodes || [];

    async function getJSON(url) {
      const response = await fetch(url);
      if (!response.ok) throw new Error(url + ": " + response.status);
      return response.json();
    }

    async function start() {
      const schema = await getJSON("/playground/schema.json");
      for (const variant of schema.properties.nodes.items.oneOf) ops[variant.properties.op.const] = variant;
      for (const name of await getJSON("/playground/sources")) $("source").add(new Option(name, name));
      presets = await getJSON("/playground/presets");
      for (const name of Object.keys(presets).sort()) $("preset").add(new Option(name, name));
      const wanted = new URLSearchParams(location.search).get("preset");
      $("preset").value = presets[wanted] ? wanted : (presets["portrait-glow"] ? "portrait-glow" : Object.keys(presets)[0]);
      usePreset();
    }

    function usePreset() {
      $("recipe").value = presets[$("preset").value];
      buildSliders();
      schedule();
    }

    function buildSliders() {
      const box = $("sliders");
      box.textContent = "";
      let recipe;
      try { recipe = JSON.parse($("recipe").value); } catch (error) { $("problems").textContent = "JSON: " + error.message; return; }
      steps(recipe).forEach((step, index) => {
        const spec = ops[step.op];
        if (!spec) return;
        for (const [name, param] of Object.entries(spec.properties)) {
          if (param.type !== "number" && param.type !== "integer") continue;
          const row = document.createElement("label");
          row.className = "slider";
          const input = document.createElement("input");
          input.type = "range";
          // A size's range runs to limits no one slides to (a width of 1 000 000): the slider stops at 8192 or twice
          // the recipe's value, whichever is more; the JSON still takes any value in range.
          const value = Number(step[name] ?? param.default);
          const top = param.type === "integer" && param.maximum > 10000 ? Math.max(8192, 2 * value) : param.maximum;
          input.min = param.minimum; input.max = top;
          input.step = param.type === "integer" ? 1 : (param.maximum - param.minimum) / 400;
          input.value = step[name] ?? param.default;
          input.dataset.step = index; input.dataset.param = name;
          const shown = document.createElement("output");
          shown.textContent = String(step[name] ?? param.default);  // the recipe's value, before the slider snaps it
          input.addEventListener("input", () => {
            const edited = JSON.parse($("recipe").value);
            steps(edited)[index][name] = Number(input.value);
            $("recipe").value = JSON.stringify(edited, null, 2);
            shown.textContent = input.value;
            schedule();
          });
          row.append(step.op + " " + name, input, shown);
          row.title = param.description || "";
          box.append(row);
        }
      });
    }

    function schedule() { clearTimeout(timer); timer = setTimeout(render, 120); }

    async function render() {
      const mine = ++asked;
      const body = JSON.stringify({ recipe: $("recipe").value, source: $("source").value });
      const response = await fetch("/playground/preview", { method: "POST", headers: { "Content-Type": "application/json" }, body });
      const answer = await response.json();
      if (mine !== asked) return;  // a newer change is on its way
      // After an error the picture left is the last recipe's that rendered: it is marked stale, not passed off as this one.
      if (!response.ok) { $("problems").textContent = answer.error; $("preview").dataset.stale = "true"; return; }
      $("problems").textContent = "";
      $("preview").dataset.stale = "false";
      $("preview").src = answer.image;
      $("stats").textContent = JSON.stringify(answer.statistics);
      $("explain").textContent = answer.explain;
      if (answer.signature) {
        $("signed").textContent = "curl -F recipe=@recipe.json -F signature=" + answer.signature +
          " -F image=@photo.jpg " + location.origin + "/render -o out.png";
      }
      document.body.dataset.renders = String(++renders);
    }

    $("recipe").addEventListener("input", () => { buildSliders(); schedule(); });
    $("preset").addEventListener("change", usePreset);
    $("source").addEventListener("change", schedule);
    $("copy").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText($("signed").textContent));
    $("upload").addEventListener("change", async () => {
      const file = $("upload").files[0];
      if (!file) return;
      const response = await fetch("/playground/upload", { method: "POST", body: file });
      const answer = await response.json();
      if (!response.ok) { $("problems").textContent = answer.error; return; }
      $("source").add(new Option(file.name, answer.source));
      $("source").value = answer.source;
      schedule();
    });
    start().catch((error) => { $("problems").textContent = String(error); });
    </script>
    </body>
    </html>
    """#
}
