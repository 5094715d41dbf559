/// The page's stylesheet: screen (ladder beside the step), narrow screens (one column), print
/// (the whole ladder and every step on paper, no buttons) and slides (one step per screen, large
/// type). System fonts only; colours meet WCAG AA contrast (4.5:1) on their backgrounds. A Chinese page (`lang="zh-Hans"`)
/// takes a CJK font stack (Noto Sans CJK SC, PingFang SC, Microsoft YaHei…).
enum HTMLStyleSheet {
    static let css = """
    :root{--ink:#1b1b1b;--muted:#474747;--tcp:#005f73;--tls:#1b6e20;--alert:#b00020;--plain:#333;--accent:#0b4fa8;
    --band0:#eaf1fb;--band1:#f5f5ee;--current:#ffe27a;--line:#c4c4c4;--paper:#fff}
    *{box-sizing:border-box}
    html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Helvetica Neue",Arial,"Noto Sans CJK SC","PingFang SC","Microsoft YaHei",sans-serif;
    color:var(--ink);background:var(--paper);line-height:1.45}
    body{margin:0 auto;padding:0 1rem 2rem;max-width:1500px}
    code,pre,.facts,.fields,.label,.time,.head{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Liberation Mono","Noto Sans Mono",monospace}
    html:lang(zh-Hans){font-family:"Noto Sans CJK SC","Source Han Sans SC","PingFang SC","Hiragino Sans GB","Microsoft YaHei",system-ui,sans-serif;line-height:1.6}
    :lang(zh-Hans) code,:lang(zh-Hans) pre,:lang(zh-Hans) .facts,:lang(zh-Hans) .fields,:lang(zh-Hans) .label,:lang(zh-Hans) .time,:lang(zh-Hans) .head{
    font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Liberation Mono","Noto Sans Mono CJK SC","Noto Sans CJK SC","PingFang SC","Microsoft YaHei",monospace}
    .skip{position:absolute;left:.5rem;top:0;transform:translateY(-120%);background:var(--accent);color:#fff;padding:.4rem .8rem}
    .skip:focus{transform:none;z-index:10}
    header.top h1{font-size:1.5rem;margin:1rem 0 .2rem}
    .subtitle{margin:.1rem 0;color:var(--muted)}
    .about{margin:.1rem 0 .6rem;color:var(--muted);font-size:.9rem}
    .controls{position:sticky;top:0;z-index:5;background:var(--paper);display:flex;flex-wrap:wrap;gap:.6rem;align-items:center;
    padding:.5rem 0;border-bottom:1px solid var(--line)}
    .controls button{font:inherit;font-weight:600;background:var(--accent);color:#fff;border:0;border-radius:.3rem;padding:.35rem .9rem;cursor:pointer}
    .controls button:disabled{background:#6b6b6b;cursor:default}
    .keys{color:var(--muted);font-size:.85rem}
    #position{font-weight:600;min-width:9em}
    :focus-visible{outline:3px solid var(--accent);outline-offset:2px}
    .layout{display:grid;grid-template-columns:minmax(0,var(--ladder-column,800px)) minmax(320px,1fr);gap:1.2rem;align-items:start;margin-top:.8rem}
    .ladder-pane{margin:0;min-width:0}.panel{min-width:0}
    .ladder-scroll{max-height:calc(100vh - 9rem);overflow:auto;border:1px solid var(--line);border-radius:.3rem}
    #ladder{display:block;max-width:none}
    .ladder-heads{display:block;position:sticky;top:0;z-index:2;margin-bottom:-34px}
    .ladder-heads rect{fill:var(--paper)}
    .panel{position:sticky;top:3.4rem;max-height:calc(100vh - 4rem);overflow:auto;padding-right:.3rem}
    .band-0{fill:var(--band0)}.band-1{fill:var(--band1)}
    .rail{stroke:#8a8a8a;stroke-width:1.2}
    .head{font-size:12px;font-weight:700;fill:var(--ink)}
    .row .hit{fill:transparent}
    .row{cursor:pointer}
    .row:hover .hit{fill:#0b4fa814}
    .row.current .hit,.current-swatch{fill:var(--current)}
    .row:focus{outline:none}.row:focus .hit{stroke:var(--accent);stroke-width:2}
    .label{font-size:12px;fill:var(--plain)}.label.m{text-anchor:middle}.label.e{text-anchor:end}
    .time{font-size:12px;fill:var(--muted);text-anchor:end}
    .arrow{stroke:var(--plain);stroke-width:1.6}
    .arrow.lost{stroke-dasharray:5 3}
    .leader{stroke:#8a8a8a;stroke-width:1;stroke-dasharray:1 3}
    .cross{font-size:13px;font-weight:700;fill:var(--alert)}
    .dot{fill:var(--plain)}
    .tip{fill:var(--plain)}
    .tone-tcp .arrow{stroke:var(--tcp)}.tone-tcp .label,.tone-tcp .tip,.tone-tcp .dot{fill:var(--tcp)}
    .tone-tls .arrow{stroke:var(--tls)}.tone-tls .label,.tone-tls .tip,.tone-tls .dot{fill:var(--tls)}
    .tone-alert .arrow{stroke:var(--alert)}.tone-alert .label,.tone-alert .tip,.tone-alert .dot{fill:var(--alert)}
    .tone-phase .label{font-weight:700;fill:var(--ink)}
    .row.current .label{font-weight:700}
    .row.current .arrow{stroke-width:3}
    .legend h2{font-size:1rem;margin:.6rem 0 .3rem}
    .legend ul{list-style:none;padding:0;margin:0;font-size:.85rem;columns:2 22rem}
    .legend li{margin:.15rem 0;break-inside:avoid}
    .swatch{vertical-align:middle}
    .step{scroll-margin-top:4rem}
    .step h2{font-size:1.1rem;margin:.2rem 0 .5rem}
    .step h2 .n{display:block;font-size:.8rem;color:var(--muted);font-weight:600}
    .step h2 .t{color:var(--muted);font-weight:400;font-size:.9rem}
    .step h3{font-size:1rem;margin:.8rem 0 .3rem}
    .why{margin:.4rem 0}
    .facts{list-style:none;padding:.4rem .6rem;margin:.4rem 0;background:#f4f6f8;border-radius:.3rem;font-size:.82rem;overflow-wrap:anywhere}
    .facts li{margin:.1rem 0;white-space:pre-wrap}
    .none{color:var(--muted)}
    .checks{padding-left:1.2rem}.pass{color:var(--tls)}.fail{color:var(--alert);font-weight:600}
    .try li{margin:.2rem 0}
    table{border-collapse:collapse;font-size:.85rem}
    th,td{border:1px solid var(--line);padding:.2rem .45rem;text-align:left;vertical-align:top}
    caption{text-align:left;font-weight:700;padding:.3rem 0}
    .knowledge td.yes{color:var(--tls);font-weight:600}.knowledge td.no{color:var(--muted)}
    .knowledge tbody th{overflow-wrap:anywhere}
    .step .knowledge{display:none}
    .knowledge-now{margin-top:1rem}
    .nojs .step .knowledge{display:table}
    details.bytes{margin:.6rem 0;border:1px solid var(--line);border-radius:.3rem;padding:.3rem .6rem}
    details.bytes summary{cursor:pointer;font-weight:600;color:var(--accent)}
    .hint{font-size:.85rem;color:var(--muted)}
    .fields-scroll{overflow-x:auto}
    .fields{font-size:.78rem;display:block;width:100%}
    .fields thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
    .fields tbody{display:block}
    .fields tr{display:grid;grid-template-columns:3.4em minmax(0,1fr);border-bottom:1px solid var(--line)}
    .fields td{border:0;padding:.05rem .35rem}
    .fields td.o{grid-row:1/span 3;text-align:right;color:var(--muted)}
    .fields td.f{font-weight:600;overflow-wrap:anywhere}
    .fields td.v,.fields td.x{grid-column:2;overflow-wrap:anywhere}
    .fields td.x{color:var(--muted)}
    .d0 :is(.f,.v,.x){padding-left:.4em}.d1 :is(.f,.v,.x){padding-left:1.2em}.d2 :is(.f,.v,.x){padding-left:2em}.d3 :is(.f,.v,.x){padding-left:2.8em}
    .d4 :is(.f,.v,.x){padding-left:3.6em}.d5 :is(.f,.v,.x){padding-left:4.4em}.d6 :is(.f,.v,.x){padding-left:5.2em}.d7 :is(.f,.v,.x){padding-left:6em}
    .d8 :is(.f,.v,.x){padding-left:6.8em}.d9 :is(.f,.v,.x){padding-left:7.6em}
    ul.calc{padding-left:1.1rem;font-size:.85rem;overflow-wrap:anywhere}
    ul.calc li{margin:.2rem 0}
    .knowledge-now{overflow-x:auto}
    .fields tr.group td{background:#f4f6f8}
    .fields tr.hl td{background:var(--current)}
    .note{display:block;color:var(--alert)}
    .hexdump{font-size:.8rem;line-height:1.5;overflow-x:auto}
    .hexdump b{font-weight:400;padding:0 .15em}
    .hexdump b.hl{background:var(--current);font-weight:700}
    .hexdump .off{color:var(--muted);padding-right:.8em}
    .nojs .dump{display:none}
    .chain{margin:.8rem 0;padding:.5rem .7rem;border:1px solid var(--line);border-radius:.3rem}
    .chain figcaption{font-weight:700}
    .links{padding-left:1.2rem}.link{margin:.5rem 0}.link h4{margin:.2rem 0;font-size:.95rem}
    .link.bad h4{color:var(--alert)}
    .key{margin:.1rem 0;font-style:italic}
    .hashes{font-size:.8rem;margin:.2rem 0}.hashes dd{margin:0 0 .2rem 1rem;overflow-wrap:anywhere}
    nav.course ul{list-style:none;display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;padding:0;margin:.3rem 0}
    ol.course li{margin:.35rem 0}.start{background:var(--current);padding:0 .3em;border-radius:.2rem}
    .summary{color:var(--muted);font-size:.9rem}
    footer{margin-top:2rem;color:var(--muted);font-size:.85rem}
    .noscript{background:#fff4d6;padding:.4rem .6rem}
    @media (max-width:1000px){.layout{grid-template-columns:minmax(0,1fr)}.panel{order:-1;position:static;max-height:45vh;border-bottom:1px solid var(--line)}
    .ladder-scroll{max-height:45vh}.keys{display:none}.legend ul{columns:1}
    .knowledge{font-size:.8rem}.knowledge th,.knowledge td{padding:.15rem .3rem}}
    @media (max-width:480px){.knowledge{font-size:.75rem}.knowledge th,.knowledge td{padding:.1rem .15rem}}
    body.slides{max-width:none;font-size:1.55rem}
    .slides .layout{grid-template-columns:minmax(0,1fr)}
    .slides .panel{order:-1;position:static;max-height:none}
    .slides .ladder-scroll{max-height:28vh}
    .slides .legend,.slides .keys,.slides .about{display:none}
    .slides .facts{font-size:1.1rem}
    .slides .step h2{font-size:2rem}
    .slides .controls button{font-size:1.4rem}
    .calc-step{margin:.6rem 0;padding:.4rem .6rem;border:1px solid var(--line);border-radius:.3rem}
    .calc-step figcaption{font-weight:600}
    .calc-step .formula{margin:.3rem 0}
    .calc-step ul.calc{list-style:none;padding-left:0}
    .calc-step ul.calc li{margin:.2rem 0}
    .calc-step code.value{overflow-wrap:anywhere;word-break:break-all}
    .calc-step .name{font-family:ui-monospace,monospace;font-weight:600}
    .calc-step .size{color:var(--muted)}
    button.copy,button.copy-all{font:inherit;padding:.05rem .45rem;border:1px solid var(--line);border-radius:.25rem;background:var(--paper);color:var(--ink);cursor:pointer}
    .copy-source{position:fixed;left:-9999px;top:0;opacity:0}
    @media print{
    .controls,button.copy,button.copy-all,.skip,.knowledge-now,.hint,.noscript,.dump,.keys{display:none!important}
    body{max-width:none;padding:0;font-size:10.5pt}
    .layout{display:block}
    .ladder-scroll{max-height:none;overflow:visible;border:0}
    #ladder{width:100%;height:auto}
    .panel{position:static;max-height:none;overflow:visible}
    .step,.step[hidden]{display:block!important;border-top:1px solid var(--line);padding-top:.3rem;break-inside:auto}
    .step h2{break-after:avoid}
    .step .knowledge{display:table!important;margin:.4rem 0}
    details.bytes::details-content{content-visibility:visible;display:block}
    .row.current .hit{fill:transparent}.row.current .arrow{stroke-width:1.6}.row.current .label{font-weight:400}
    a{color:var(--ink)}
    }

    """
}
