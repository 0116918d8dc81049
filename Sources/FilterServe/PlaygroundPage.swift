/// The playground's page: plain HTML and JavaScript, no build step. Controls come from the recipe schema: a slider
/// for each numeric parameter (its minimum, maximum and default, as the catalogue declares them), a menu for each
/// choice, a box for each switch, a colour well for each colour; every change asks the server for a preview, and the
/// last answer wins. "Before" shows the source as it comes; "Download" saves the preview.
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
      .slider, .control { display: grid; grid-template-columns: 10em 1fr 5em; gap: 8px; align-items: center; }
      #original { display: none; max-width: 100%; }
      body[data-before="true"] #original { display: block; }
      body[data-before="true"] #preview { display: none; }
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
        <p><label>Output <select id="format"><option value="png">png</option><option value="jpeg">jpeg</option><option value="webp">webp</option><option value="avif">avif</option></select></label>
           <label>quality <input type="range" id="quality" min="1" max="100" value="80"><output id="qualityShown">80</output></label>
           <span id="bytes"></span></p>
        <p><label><input type="checkbox" id="before"> Before</label>
           <a id="download" download="preview.png" href="#">Download</a></p>
        <img id="preview" alt="preview"><img id="original" alt="the source as it comes">
        <h3>Last render</h3><pre id="stats"></pre>
        <details><summary>Plan</summary><pre id="explain"></pre></details>
        <h3>Signed request</h3>
        <p><button id="copy">Copy</button></p><pre id="signed">(the server has no signing key)</pre>
      </section>
    </main>
    <script>
    const $ = (id) => document.getElementById(id);
    const ops = {};
    let presets = {}, timer = 0, asked = 0, renders = 0, originals = {};

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

    // The recipe's text laid out once, so that a control's change alters one value and nothing reflows.
    const pretty = (text) => { try { return JSON.stringify(JSON.parse(text), null, 2); } catch (error) { return text; } };

    // Writes `step[name] = value` into the recipe's text, keeping the editor's scroll position.
    function setParam(index, name, value) {
      const box = $("recipe"), top = box.scrollTop;
      const edited = JSON.parse(box.value);
      steps(edited)[index][name] = value;
      box.value = JSON.stringify(edited, null, 2);
      box.scrollTop = top;
      schedule();
    }

    function usePreset() {
      $("recipe").value = pretty(presets[$("preset").value]);
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
          const current = step[name] ?? param.default;
          const row = document.createElement("label");
          row.title = param.description || "";
          let input;
          if (param.type === "number" || param.type === "integer") {
            row.className = "slider";
            input = document.createElement("input");
            input.type = "range";
            // A size's range runs to limits no one slides to (a width of 1 000 000): the slider stops at 8192 or
            // twice the recipe's value, whichever is more; the JSON still takes any value in range.
            const value = Number(current);
            const top = param.type === "integer" && param.maximum > 10000 ? Math.max(8192, 2 * value) : param.maximum;
            input.min = param.minimum; input.max = top;
            input.step = param.type === "integer" ? 1 : (param.maximum - param.minimum) / 400;
            input.value = current;
            const shown = document.createElement("output");
            shown.textContent = String(current);  // the recipe's value, before the slider snaps it
            input.addEventListener("input", () => { shown.textContent = input.value; setParam(index, name, Number(input.value)); });
            row.append(step.op + " " + name, input, shown);
          } else if (Array.isArray(param.enum)) {
            row.className = "control";
            input = document.createElement("select");
            for (const option of param.enum) input.add(new Option(option, option));
            input.value = current;
            input.addEventListener("change", () => setParam(index, name, input.value));
            row.append(step.op + " " + name, input, document.createElement("span"));
          } else if (param.type === "boolean") {
            row.className = "control";
            input = document.createElement("input");
            input.type = "checkbox";
            input.checked = current === true;
            input.addEventListener("change", () => setParam(index, name, input.checked));
            row.append(step.op + " " + name, input, document.createElement("span"));
          } else if (Array.isArray(param.oneOf) && param.oneOf.some((v) => v.pattern && v.pattern.startsWith("^#"))) {
            // A colour: the well picks red, green and blue; the recipe's alpha is kept.
            row.className = "control";
            input = document.createElement("input");
            input.type = "color";
            const rgba = typeof current === "string"
              ? [1, 3, 5].map((i) => parseInt(current.slice(i, i + 2), 16) / 255).concat([current.length > 7 ? parseInt(current.slice(7, 9), 16) / 255 : 1])
              : [...current, 1].slice(0, 4);
            input.value = "#" + rgba.slice(0, 3).map((v) => Math.round(Math.min(1, Math.max(0, v)) * 255).toString(16).padStart(2, "0")).join("");
            input.addEventListener("input", () => {
              const rgb = [1, 3, 5].map((i) => Math.round(parseInt(input.value.slice(i, i + 2), 16) / 255 * 1000) / 1000);
              setParam(index, name, rgb.concat([rgba[3]]));
            });
            row.append(step.op + " " + name, input, document.createElement("span"));
          } else {
            continue;
          }
          input.dataset.step = index; input.dataset.param = name;
          box.append(row);
        }
      });
    }

    function schedule() { clearTimeout(timer); timer = setTimeout(render, 120); }

    async function render() {
      const mine = ++asked;
      const body = JSON.stringify({ recipe: $("recipe").value, source: $("source").value, format: $("format").value,
                                    quality: Number($("quality").value) });
      const response = await fetch("/playground/preview", { method: "POST", headers: { "Content-Type": "application/json" }, body });
      const answer = await response.json();
      if (mine !== asked) return;  // a newer change is on its way
      // After an error the picture left is the last recipe's that rendered: it is marked stale, not passed off as this one.
      if (!response.ok) { $("problems").textContent = answer.error; $("preview").dataset.stale = "true"; return; }
      $("problems").textContent = "";
      $("preview").dataset.stale = "false";
      $("preview").src = answer.image;
      $("download").href = answer.image;
      $("download").download = "preview." + ({ jpeg: "jpg" }[$("format").value] || $("format").value);
      $("bytes").textContent = (answer.bytes / 1024).toFixed(1) + " KiB";
      $("stats").textContent = JSON.stringify(answer.statistics);
      $("explain").textContent = answer.explain;
      if (answer.signature) {
        $("signed").textContent = "curl -F recipe=@recipe.json -F signature=" + answer.signature +
          " -F image=@photo.jpg " + location.origin + "/render -o out.png";
      }
      document.body.dataset.renders = String(++renders);
    }

    // The source as it comes (no steps), asked for once per source.
    async function showOriginal() {
      const source = $("source").value;
      if (!originals[source]) {
        const body = JSON.stringify({ recipe: '{"version": 1, "steps": []}', source });
        const response = await fetch("/playground/preview", { method: "POST", headers: { "Content-Type": "application/json" }, body });
        if (!response.ok) return;
        originals[source] = (await response.json()).image;
      }
      $("original").src = originals[source];
    }

    $("recipe").addEventListener("input", () => { buildSliders(); schedule(); });
    $("format").addEventListener("change", schedule);
    $("quality").addEventListener("input", () => { $("qualityShown").textContent = $("quality").value; schedule(); });
    $("preset").addEventListener("change", usePreset);
    $("source").addEventListener("change", () => { schedule(); if ($("before").checked) showOriginal(); });
    $("before").addEventListener("change", async () => {
      if ($("before").checked) await showOriginal();
      document.body.dataset.before = String($("before").checked);
    });
    $("copy").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText($("signed").textContent));
    $("upload").addEventListener("change", async () => {
      const file = $("upload").files[0];
      if (!file) return;
      const response = await fetch("/playground/upload", { method: "POST", body: file });
      const answer = await response.json();
      if (!response.ok) { $("problems").textContent = answer.error; return; }
      // Once in the list, however often the same file is uploaded.
      const listed = [...$("source").options].find((option) => option.text === file.name && option.value.startsWith("upload:"));
      if (listed) listed.value = answer.source; else $("source").add(new Option(file.name, answer.source));
      $("source").value = answer.source;
      schedule();
    });
    start().catch((error) => { $("problems").textContent = String(error); });
    </script>
    </body>
    </html>
    """#
}
