#!/usr/bin/env python3
"""Writes Corpora/logs/sample.jsonl from the hand-written conversation below.

Written for BubbleLayout. The conversation is ours (no real people); run this again after editing it.
Line format: DAY HH:MM SENDER KIND REST
  KIND t: text. i: image, REST = "WxH name | caption" (WxH may be "?" for unknown size). s: system notice.
  Suffixes on the time: "~" marks an edited message. "^N" (after the kind) replies to the Nth message.
  Sam is the user ("me"): his messages are outgoing and carry a delivery status.
"""
import json, os, datetime

SCRIPT = r"""
1 09:02 Yuki t おはよう！ Good morning everyone ☀️
1 09:03 Omar t صباح الخير يا جماعة 👋
1 09:03 Sam t Morning! Did everyone see the flight prices for Kyoto? ✈️
1 09:05 Noa t בוקר טוב! yes, they dropped a lot 😮
1 09:05 Noa t https://www.example-airline.com/flights/search?from=TLV&to=KIX&depart=2024-10-03&return=2024-10-13&adults=4&cabin=economy&utm_source=newsletter&utm_campaign=autumn_sale_2024
1 09:06 Yuki t 京都の紅葉は11月が一番きれいだけど、10月もいいよ🍁
1 09:07 Sam t Translation please 😅
1 09:07 Yuki t ^6 Autumn leaves are best in November, but October is nice too 🍁
1 09:09 Omar t October works for me. رمضان is long over by then 😄
1 09:10 Sam i 1280x720 IMG_2041.jpg | Found this view from last year's trip
1 09:11 Noa t wow 😍😍
1 09:11 Yuki t すごい！ Where is that?
1 09:12 Sam t ^12 Fushimi Inari, near the top. 千本鳥居 ⛩️
1 09:14 Omar t I'm in 👍🏽
1 09:14 Noa t 👍🏻
1 09:15 Yuki t 👍
1 09:16 . s Sam named the group "Kyoto 2024 🇯🇵"
1 09:20 Omar t Budget question: what are we thinking per person? ¥, $, or ₪ 😂
1 09:21 Sam t Let's say around ¥150,000 without flights?
1 09:23 Yuki t それなら大丈夫。Hostels in 京都駅 area are about ¥4,000/night
1 09:24 Noa t אני מעדיפה מלון קטן, לא הוסטל 🙏
1 09:24 Noa t (I prefer a small hotel, not a hostel)
1 09:25 Omar t Same, I snore 😴 فهمتوا؟
1 09:26 Sam t 🤣🤣🤣
1 09:30 Yuki i 828x1792 Screenshot_2024-05-01-09-29-58.png | This ryokan has a room for 4 — 和室 with futons
1 09:32 Noa t ^25 Looks amazing!! Is there an onsen? ♨️
1 09:33 Yuki t ^26 Yes, 大浴場 on the top floor
1 09:35 Omar t Booking link?
1 09:36 Yuki t https://www.example-travel.jp/hotel/kyoto/ryokan-sakura-no-yado/rooms/japanese-style-room-for-four?checkin=2024-10-05&checkout=2024-10-08&lang=en
1 09:40 Sam t I'll make a shared doc for the plan 📝
1 12:15 Sam t Here: https://docs.example.com/document/d/1aB2cD3eF4gH5iJ6kL7mN8oP9qR0sT/edit#heading=h.kyoto-itinerary
1 12:17 Noa t ^31 תודה! 🙏
1 12:20 Omar t I added a section for food 🍜🍣🍡🍵
1 12:22 Yuki t 抹茶スイーツも忘れないで！ (don't forget matcha sweets!)
1 12:23 Sam t Obviously. 🍵 × 100
1 18:45 Omar t 🔑 Keycaps test for the doc numbering: 1️⃣ 2️⃣ 3️⃣ 4️⃣ 5️⃣ #️⃣ *️⃣ 🔟
1 18:46 Noa t ^36 lol why
1 18:46 Omar t ^37 habit from work 🤷🏾‍♂️
1 18:50 . s Omar started a call
1 19:32 . s The call ended after 42 minutes
1 19:33 Sam t Good call. Summary: 3–13 Oct, ryokan 5–8, Osaka 8–10, Nara day trip
1 19:34 Yuki t 完璧 👌
1 19:35 Noa t 👌🏼
2 08:10 Noa t Shalom! שבת שלום in advance, I'm offline Friday night 🕯️🕯️
2 08:12 Sam t 👍 noted
2 08:30 Omar t Can I invite my cousin Ploy? She lives in Bangkok and wants to join in Osaka
2 08:31 Yuki t もちろん！ Of course
2 08:31 Sam t Sure!
2 08:33 . s Omar added Ploy
2 08:34 Ploy t สวัสดีค่ะทุกคน 🙏 ขอบคุณที่ชวนนะคะ
2 08:34 Ploy t Hi everyone! Thanks for having me 😊
2 08:35 Yuki t ようこそ Ploy! 🎉
2 08:35 Noa t ברוכה הבאה! 🎉
2 08:36 Omar t أهلاً وسهلاً 🎉🎉
2 08:37 Sam t Welcome 🎉 We're planning Osaka for the 8th–10th
2 08:40 Ploy t ^55 Perfect, I can fly from BKK on the 8th ✈️ ราคาตั๋วไม่แพงเลย
2 08:42 Ploy i 1080x1350 IMG_5532.JPG | My favourite street food in Bangkok, I'll find the Osaka version 🍢
2 08:43 Omar t ^57 that looks dangerous for my diet
2 08:44 Ploy t ^58 555555 😂 (that's "hahaha" in Thai)
2 09:10 Yuki t Family emoji for the group photo plan: 👨‍👩‍👧‍👦 👩‍👩‍👧 👨‍👨‍👦‍👦 🧑‍🤝‍🧑
2 09:11 Sam t And flags for everyone: 🇯🇵 🇮🇱 🇪🇬 🇹🇭 🇬🇧
2 09:12 Omar t 🇪🇬 represent
2 09:15 Noa t Skin tones check 👋🏻👋🏼👋🏽👋🏾👋🏿
2 09:15 Ploy t 🙏🏽
2 11:00 Sam t Flights booked! ✅ Confirmation: ABC123
2 11:01 Yuki t やった！🥳
2 11:02 Noa t 🥳🥳
2 11:05 Omar t Mine too. Seat 34K, window 🪟
2 11:07 Sam i ? boarding_pass.pdf.png | Boarding pass preview (don't steal my seat 😄)
2 13:20 Yuki t 質問: 日本の SIM カードはみんな必要？ (Does everyone need a Japanese SIM?)
2 13:22 Noa t eSIM works for me 📱
2 13:23 Omar t eSIM too
2 13:24 Ploy t ฉันต้องการซิมค่ะ (I need one please)
2 13:25 Yuki t ^73 OK, I'll get one at 関西空港
2 13:30 Sam t Here's a long thought about the itinerary, sorry in advance: day one we land at KIX around 14:00, take the Haruka express to Kyoto Station (about 75 minutes), check in, and walk to Gion in the evening. Day two is Fushimi Inari at sunrise because the crowds are awful after 9, then Tofuku-ji, then lunch somewhere near Kyoto Station. Day three is Arashiyama: bamboo grove early, Tenryu-ji, the monkey park if anyone has the legs for it, and the Sagano scenic railway. Thoughts?
2 13:34 Noa t ^75 love it. Monkeys are mandatory 🐒
2 13:35 Omar t ^75 Sunrise?? 🥱
2 13:35 Yuki t ^77 頑張って！ You can do it
2 13:36 Omar t ~ Fine. But coffee first ☕☕
2 13:40 . s Noa pinned a message
2 16:00 Ploy t Osaka plan: 道頓堀 (Dotonbori), 黒門市場 (Kuromon market), and Universal? 🎢
2 16:02 Sam t USJ is expensive but fun. 유니버설 스튜디오 재팬 (my Korean colleague says hi 🇰🇷)
2 16:04 Yuki t ^81 黒門市場 is great for breakfast 🦀🐟
2 16:06 Omar t Halal options in Osaka? حلال 🙏
2 16:10 Yuki t ^84 Yes! There's a list: https://www.example-halal-guide.jp/osaka/restaurants?area=namba&area=umeda&sort=rating&cuisine=ramen,yakiniku,curry
2 16:11 Omar t ^85 شكراً يا يوكي ❤️
2 16:12 Noa t Kosher is harder, I'll bring snacks 😅
2 21:00 Sam t 晚安 everyone (my one Chinese word besides 你好) 🌙
2 21:01 Yuki t おやすみ 🌙
2 21:01 Ploy t ฝันดีค่ะ 🌙
3 07:55 Omar t Good morning. Visa question: do Egyptian passport holders need a visa for Japan? 🛂
3 07:58 Yuki t ^91 Yes, I think so. 大使館のサイトを確認してね
3 08:01 Omar t ^92 Ugh. OK, applying today
3 08:02 Sam t Let us know if you need an invitation letter or hotel confirmation 📄
3 08:03 Omar t ^94 Yes please, the hotel confirmation in PDF
3 08:10 Sam t Sent to your email 📧
3 08:10 Sam t ~ Also attached the flight itinerary
3 08:12 Omar t ^96 Got it, thanks 🙏🏾
3 10:30 Noa i 4032x3024 IMG_20240503_103002.jpg | Practising with chopsticks 🥢
3 10:31 Yuki t ^99 上手！ Very good
3 10:31 Ploy t ^99 👏👏👏
3 10:33 Omar t My chopstick skill: 🍝
3 10:35 Sam t 😂
3 12:00 . s Yuki changed the group photo
3 12:01 Yuki i 512x512 group_icon.png | New group icon ⛩️🦌
3 12:02 Noa t ^105 The deer from Nara! 🦌
3 12:03 Yuki t ^106 奈良の鹿はお辞儀するよ (the deer in Nara bow)
3 12:04 Ploy t จริงเหรอ?! Really?!
3 12:05 Yuki t ^108 本当！ Buy 鹿せんべい and they bow 🙇
3 15:20 Omar t Ramadan Mubarak tradition note: عيد مبارك cards for Yuki's family? 🎁
3 15:25 Yuki t ^110 ありがとう Omar, that's very kind 💝
3 15:30 Sam t Packing list in the doc now. Don't forget: adapters (type A), cash (Japan loves cash 💴), comfy shoes 👟
3 15:31 Noa t ^112 And a small towel! Many toilets have no paper towels
3 15:33 Ploy t And coin purse 🪙 — so many coins
3 15:34 Sam t ~ Added both ✅
3 18:00 . s Omar started a call
3 18:25 . s Missed call from Noa
3 18:26 Noa t sorry missed the call, was on the bus 🚌
3 18:27 Omar t ^118 no worries, we just discussed Nara
3 18:40 Yuki t Summary of Nara day: 東大寺 (Todai-ji) → 奈良公園 deer → 春日大社 (Kasuga Taisha) → mochi at 中谷堂 🍡
3 18:41 Sam t ^120 📌 pinning this
3 18:41 . s Sam pinned a message
3 20:00 Ploy t Question: how do you say "thank you" in everyone's language? I'll collect them 📒
3 20:01 Yuki t ありがとう (arigatou)
3 20:01 Omar t شكراً (shukran)
3 20:02 Noa t תודה (toda)
3 20:02 Sam t Cheers (British, sorry) 🇬🇧
3 20:03 Ploy t ขอบคุณค่ะ (khop khun kha) 🙏
3 20:04 Ploy t ^123 Saved! 💾
4 09:00 Sam t T-minus 150 days ⏳
4 09:02 Yuki t まだまだ先だね 😂
4 09:05 Noa t time flies ⏰
4 09:20 Omar t Visa appointment booked for June 3rd 🗓️
4 09:21 Noa t ^133 בהצלחה! Good luck!
4 09:22 Yuki t ^133 頑張って！
4 09:22 Ploy t ^133 สู้ๆ นะคะ 💪🏽
4 11:45 Sam t Mixed script stress test for our app friends: English עברית العربية 中文 日本語 한국어 ไทย in one line
4 11:47 Yuki t ^137 Ha, that's a nice one. Also 𠮷野家 (the 𠮷 is outside the BMP)
4 11:48 Omar t ^138 nerd 🤓
4 11:50 Noa t Numbers in Hebrew text: הטיסה ב-14:35, טרמינל 3, מושב 22A
4 11:52 Omar t And Arabic: الرحلة رقم ٣٤٥ تغادر الساعة ١٠:٣٠
4 14:00 Ploy i ? IMG-20240504-WA0012.jpg | Osaka castle from my last trip 🏯
4 14:02 Yuki t ^142 大阪城！ Beautiful
4 14:05 Sam t Ok, ryokan deposit paid 💳 ¥20,000 each, I'll send a payment request
4 14:06 Sam t Payment request: https://pay.example.com/r/9f8e7d6c5b4a39281716/kyoto-2024-ryokan-deposit?amount=20000&currency=JPY
4 14:10 Noa t ^145 Paid ✅
4 14:11 Omar t ^145 Paid ✅
4 14:15 Yuki t ^145 払った ✅
4 14:20 Ploy t ^144 I'm only in Osaka, so no ryokan for me, right? 🤔
4 14:21 Sam t ^149 Right, you're good 👍
4 16:30 . s Noa changed the group name to "Kyoto+Osaka 2024 🇯🇵🦌"
4 16:31 Noa t better name 😌
4 16:32 Omar t 🦌🦌🦌
4 19:00 Yuki t Last thing today: the 🍁 forecast for October https://www.example-weather.jp/koyo/kyoto/forecast/2024?view=map&lang=en&units=metric
4 19:05 Sam t Can't wait. おやすみ 🌙
4 19:06 Ploy t Good night 😴
4 23:58 Sam t (sending before bed) don't forget the passport photos 📸
"""

STATUSES = ["read", "read", "read", "delivered", "read", "read", "delivered", "read"]

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out_path = os.path.join(here, "..", "logs", "sample.jsonl")
    base = datetime.datetime(2024, 5, 1, tzinfo=datetime.timezone(datetime.timedelta(hours=9)))
    records = []
    sam_count = 0
    for line in SCRIPT.strip().splitlines():
        day, time, sender, kind, *rest = line.split(" ", 4)
        rest = rest[0] if rest else ""
        edited = False
        reply = None
        if kind == "~":  # "~" after the sender: an edited message
            edited = True
            kind, rest = rest.split(" ", 1)
        if rest.startswith("~ "):
            edited, rest = True, rest[2:]
        if rest.startswith("^"):
            ref, rest = rest.split(" ", 1)
            reply = int(ref[1:])
        if kind == "t" and rest.startswith("~ "):
            edited, rest = True, rest[2:]
        hour, minute = map(int, time.split(":"))
        when = base + datetime.timedelta(days=int(day) - 1, hours=hour, minutes=minute)
        n = len(records) + 1
        record = {"id": f"m{n:03d}"}
        if kind == "s":
            record["type"] = "system"
        elif kind == "i":
            record["type"] = "image"
            record["from"] = sender
        else:
            record["type"] = "text"
            record["from"] = sender
        if sender == "Sam" and kind != "s":
            record["outgoing"] = True
        # Dates in three shapes, as real logs mix them: offset, UTC with fraction, Unix seconds.
        if n % 7 == 0:
            record["date"] = int(when.timestamp())
        elif n % 5 == 0:
            record["date"] = when.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") + ".250Z"
        else:
            record["date"] = when.isoformat()
        if sender == "Sam" and kind != "s":
            sam_count += 1
            record["status"] = STATUSES[sam_count % len(STATUSES)]
        if edited:
            record["edited"] = True
        if reply:
            record["replyTo"] = f"m{reply:03d}"
        if kind == "i":
            size, _, caption = rest.partition(" | ")
            dims, name = size.split(" ", 1)
            image = {}
            if dims != "?":
                w, h = dims.split("x")
                image["width"], image["height"] = int(w), int(h)
            image["name"] = name
            record["image"] = image
            if caption:
                record["text"] = caption
        else:
            record["text"] = rest
        records.append(record)
    # The last two of Sam's messages: one failed, one still sending.
    sams = [r for r in records if r.get("from") == "Sam"]
    sams[-2]["status"] = "failed"
    sams[-1]["status"] = "sending"
    with open(out_path, "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"wrote {len(records)} records to {out_path}")

main()
