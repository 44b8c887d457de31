"""The HTML page of a layout picture: the SVG inline, a read-out line, zoom buttons
(and the keys +, - and 0) and a small script, with no external resource (no link, font,
style sheet or script file).

Pointing at a cell (an SVG rect of class "cell" with data-e: the elements it holds,
separated by spaces; data-v: its location; data-reg, data-lane, data-bits) writes them
to the read-out and highlights (class "hl") every cell holding one of those elements.
"""
from __future__ import annotations

from formats.svg import escape

SCRIPT = """
(function(){
var cells=document.querySelectorAll('.cell'),byId={},lit=[],out=document.getElementById('readout');
cells.forEach(function(c){c.getAttribute('data-e').split(' ').forEach(function(e){
(byId[e]=byId[e]||[]).push(c);});});
function show(c){
lit.forEach(function(x){x.classList.remove('hl');});lit=[];
var ids=c.getAttribute('data-e').split(' ');
ids.forEach(function(e){byId[e].forEach(function(x){
if(lit.indexOf(x)<0){x.classList.add('hl');lit.push(x);}});});
out.textContent=ids.join(', ')+'  =  '+c.getAttribute('data-v')+
'   (VGPR '+c.getAttribute('data-reg')+
', lane '+c.getAttribute('data-lane')+', bits '+c.getAttribute('data-bits')+'; '+lit.length+
(lit.length==1?' place':' places')+' highlighted)';}
document.addEventListener('mouseover',function(ev){var c=ev.target;
if(c.classList&&c.classList.contains('cell'))show(c);});
var svg=document.querySelector('svg'),w0=+svg.getAttribute('width'),
h0=+svg.getAttribute('height'),zoom=1,shown=document.getElementById('zoom');
function scale(z){zoom=Math.max(0.25,Math.min(4,z));svg.setAttribute('width',w0*zoom);
svg.setAttribute('height',h0*zoom);shown.textContent=Math.round(zoom*100)+'%';}
document.getElementById('zin').onclick=function(){scale(zoom*1.25);};
document.getElementById('zout').onclick=function(){scale(zoom/1.25);};
document.getElementById('zfit').onclick=function(){
scale(Math.min(1,(document.documentElement.clientWidth-8)/w0));};
document.addEventListener('keydown',function(ev){if(ev.key=='+'||ev.key=='=')scale(zoom*1.25);
else if(ev.key=='-')scale(zoom/1.25);else if(ev.key=='0')scale(1);});
})();
"""

PAGE_STYLE = ("body{margin:0;font-family:DejaVu Sans Mono,Menlo,Consolas,monospace;"
              "background:#FFFFFF;color:#1A1A1A}#readout{position:sticky;top:0;padding:6px "
              "16px;background:#FFFFFFE6;border-bottom:1px solid #CCCCCC;"
              "min-height:1.2em;font-size:14px}#zoombar{position:fixed;right:8px;top:4px;"
              "font-size:13px}#zoombar button{font:inherit;margin-left:2px}")


def page(title: str, svg: str) -> str:
    """One self-contained HTML page: the SVG, a read-out line and the script."""
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{escape(title)}</title>\n<style>{PAGE_STYLE}</style>\n</head>\n<body>\n"
            "<div id=\"readout\">Point at a cell: its element, register, lane and bits; "
            "every copy of the element is highlighted.</div>\n"
            "<div id=\"zoombar\">zoom <span id=\"zoom\">100%</span>"
            "<button id=\"zout\" title=\"zoom out (-)\">-</button>"
            "<button id=\"zin\" title=\"zoom in (+)\">+</button>"
            "<button id=\"zfit\" title=\"fit the window's width\">fit</button></div>\n"
            f"{svg}<script>{SCRIPT}</script>\n</body>\n</html>\n")
