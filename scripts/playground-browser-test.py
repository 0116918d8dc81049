#!/usr/bin/env python3
"""The playground in a real browser (Debian's chromium and chromedriver, driven by Selenium from PyPI).

Usage: playground-browser-test.py BASE_URL. Loads the page, waits for the first preview, moves the last slider
(the recipe's last step, so everything before it can come from the preview session's cache) with the keyboard, and
checks that the preview changed, that the re-render took nodes from the cache and that the recipe's text kept its
layout (one value changed, no reflow); a menu (the blend's mode) changes the recipe and the picture; "Before" shows
the source as it comes and "Download" links the preview; then a recipe that cannot render marks the picture stale and
a good one clears the mark. Prints one JSON line; exits 1 on a failed check.
"""
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

base = sys.argv[1]
options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000"):
    options.add_argument(flag)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
result = {}
try:
    driver.get(base + "/?preset=portrait-glow")
    wait = WebDriverWait(driver, 60)
    renders = lambda: int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-renders") or 0)
    wait.until(lambda d: renders() >= 1)
    preview = driver.find_element(By.ID, "preview")
    first = preview.get_attribute("src")
    sliders = driver.find_elements(By.CSS_SELECTOR, "#sliders input[type=range]")
    result["sliders"] = len(sliders)
    last = sliders[-1]
    result["slider"] = last.get_attribute("data-param")
    before = float(last.get_attribute("value"))
    textarea = driver.find_element(By.ID, "recipe")
    lines = textarea.get_attribute("value").count("\n")
    done = renders()
    last.send_keys(Keys.ARROW_RIGHT * 40)
    wait.until(lambda d: renders() > done and preview.get_attribute("src") != first)
    # Let the last answer (a later key may have asked again) settle.
    wait.until(lambda d: json.loads(driver.find_element(By.ID, "stats").text or "{}").get("nodesRun") is not None)
    result["moved"] = [before, float(last.get_attribute("value"))]
    result["statistics"] = json.loads(driver.find_element(By.ID, "stats").text)
    result["previewChanged"] = preview.get_attribute("src") != first
    result["problems"] = driver.find_element(By.ID, "problems").text
    # At most the moved parameter's own line is new (it may have been left at its default); nothing else moved.
    result["noReflow"] = textarea.get_attribute("value").count("\n") - lines in (0, 1)
    # A non-numeric control: the blend's mode, as a menu.
    from selenium.webdriver.support.ui import Select
    mode = driver.find_element(By.CSS_SELECTOR, "#sliders select[data-param=mode]")
    shown = preview.get_attribute("src")
    done = renders()
    Select(mode).select_by_value("multiply")
    wait.until(lambda d: renders() > done and preview.get_attribute("src") != shown)
    result["menu"] = '"mode": "multiply"' in textarea.get_attribute("value")
    # Before and after, and the download link.
    driver.find_element(By.ID, "before").click()
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-before") == "true")
    original = driver.find_element(By.ID, "original")
    wait.until(lambda d: (original.get_attribute("src") or "").startswith("data:image/png"))
    result["before"] = original.is_displayed() and not preview.is_displayed() and original.get_attribute("src") != preview.get_attribute("src")
    driver.find_element(By.ID, "before").click()
    wait.until(lambda d: preview.is_displayed())
    download = driver.find_element(By.ID, "download")
    result["download"] = download.get_attribute("download") == "preview.png" and download.get_attribute("href") == preview.get_attribute("src")
    # The output's format and quality: a JPEG preview at quality 20 is smaller than at 90.
    def bytes_shown():
        return float(driver.find_element(By.ID, "bytes").text.split()[0])
    done = renders()
    Select(driver.find_element(By.ID, "format")).select_by_value("jpeg")
    wait.until(lambda d: renders() > done and preview.get_attribute("src").startswith("data:image/jpeg"))
    quality = driver.find_element(By.ID, "quality")
    sizes = []
    for value in (90, 20):
        done, shown_before = renders(), driver.find_element(By.ID, "bytes").text
        driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));", quality, value)
        wait.until(lambda d: renders() > done and d.find_element(By.ID, "bytes").text != shown_before)
        sizes.append(bytes_shown())
    result["jpegSizes"] = sizes
    result["format"] = (download.get_attribute("download") == "preview.jpg" and sizes[1] < sizes[0])
    Select(driver.find_element(By.ID, "format")).select_by_value("png")
    # A recipe that cannot render leaves the last picture marked stale, and a good one clears the mark.
    good = textarea.get_attribute("value")
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));", textarea,
                          '{"version": 1, "steps": [{"op": "noSuchFilter"}]}')
    wait.until(lambda d: d.find_element(By.ID, "problems").text != "")
    result["staleAfterError"] = preview.get_attribute("data-stale") == "true"
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));", textarea, good)
    wait.until(lambda d: d.find_element(By.ID, "problems").text == "" and preview.get_attribute("data-stale") == "false")
    result["freshAgain"] = True
finally:
    driver.quit()
print(json.dumps(result))
ok = (result.get("previewChanged") and result["moved"][1] > result["moved"][0]
      and result["statistics"].get("nodesFromCache", 0) > 0 and not result.get("problems")
      and result.get("noReflow") and result.get("menu") and result.get("before") and result.get("download")
      and result.get("format")
      and result.get("staleAfterError") and result.get("freshAgain"))
sys.exit(0 if ok else 1)
