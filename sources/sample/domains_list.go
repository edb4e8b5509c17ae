package sample

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
)

// domainTables are the tables beyond the original ones: many domains,
// sizes from a dozen rows to a few hundred, clean and messy.
var domainTables = []tableDef{
	{name: "retail_orders.csv", rows: 180, cols: []col{
		{"order_id", false, seqID("R-", 5001)}, {"order_date", false, mixedDate(0, 2, 2)},
		{"store", false, messyCat(9, "Downtown", "Airport", "Mall", "Harbour")},
		{"item", false, oneOf("Coffee Beans", "Tea Set", "Mug", "Grinder", "Kettle", "Filter Papers")},
		{"qty", true, intIn(1, 12)}, {"amount", false, money(180, 120)},
	}, nulls: 6, nullCols: []int{2, 4}, dups: 3},
	{name: "store_sales_2022.xlsx", rows: 120, cols: []col{
		{"week", true, func(_ *rand.Rand, i int) string { return strconv.Itoa(1 + i%52) }},
		{"store", false, oneOf("North Hub", "City Center", "Lakeside")},
		{"visitors", true, norm(2400, 500, 200, 0, 40)}, {"revenue", true, norm(48000, 9000, 1000, 2, 0)},
		{"returns", true, intIn(0, 40)},
	}},
	{name: "daily_weather_tokyo.csv", rows: 200, cols: []col{
		{"date", false, isoDate(0, 1, 0)}, {"max_temp_c", true, norm(20, 7, -5, 1, 0)},
		{"min_temp_c", true, norm(12, 6, -10, 1, 0)}, {"rain_mm", true, norm(3, 6, 0, 1, 0)},
		{"sunshine_h", true, norm(6, 3, 0, 1, 0)}, {"condition", false, messyCat(12, "Sunny", "Cloudy", "Rain", "Showers")},
	}, nulls: 5, nullCols: []int{1, 3}},
	{name: "weather_stations.tsv", rows: 96, cols: []col{
		{"station", false, oneOf("ST-North", "ST-Coast", "ST-Valley", "ST-Peak")}, {"month", true, func(_ *rand.Rand, i int) string { return strconv.Itoa(1 + i%12) }},
		{"avg_temp", true, norm(11, 8, -15, 1, 0)}, {"wind_speed", true, norm(14, 5, 0, 1, 30)}, {"pressure_hpa", true, norm(1013, 8, 950, 1, 0)},
	}},
	{name: "staff_directory.csv", rows: 75, cols: []col{
		{"employee_id", false, seqID("E", 1001)}, {"full_name", false, person},
		{"department", false, messyCat(6, "Engineering", "Sales", "Finance", "Support", "Legal")},
		{"hire_date", false, mixedDate(-2500, 30, 20)}, {"salary", true, norm(62000, 15000, 28000, 0, 50)}, {"remote", false, oneOf("yes", "no", "no")},
	}, nulls: 4, nullCols: []int{4}},
	{name: "employees_cn.csv", rows: 60, cols: []col{
		{"工号", false, seqID("CN", 2001)}, {"姓名", false, zhPerson}, {"部门", false, oneOf("研发部", "市场部", "财务部", "人事部")},
		{"月薪", true, norm(15000, 4000, 6000, 0, 0)}, {"入职年份", true, intIn(2012, 2023)}, {"绩效评分", true, norm(3.6, 0.7, 1, 1, 0)},
	}, nulls: 3, nullCols: []int{3}, dups: 2},
	{name: "attendance_log.csv", rows: 150, cols: []col{
		{"date", false, isoDate(30, 0, 60)}, {"employee", false, person}, {"team", false, oneOf("Alpha", "Beta", "Gamma")},
		{"hours_worked", true, norm(7.8, 1.2, 0, 1, 0)}, {"overtime", true, norm(0.6, 0.8, 0, 1, 0)},
	}},
	{name: "sensor_readings.csv", rows: 240, cols: []col{
		{"timestamp", false, func(r *rand.Rand, i int) string { return date(i/24) + fmt.Sprintf(" %02d:00:00", i%24) }},
		{"device", false, oneOf("TH-01", "TH-02", "TH-03")}, {"temperature", true, norm(22, 2, -999, 2, 0)},
		{"humidity", true, norm(48, 8, 5, 1, 0)}, {"battery", true, norm(78, 10, 5, 0, 0)},
	}, nulls: 8, nullCols: []int{2, 3}},
	{name: "machine_vibration.tsv", rows: 130, cols: []col{
		{"machine", false, oneOf("Press-A", "Press-B", "Lathe-1", "Mill-2")}, {"rpm", true, norm(1450, 120, 100, 0, 0)},
		{"vibration_mm_s", true, norm(2.3, 0.6, 0, 2, 25)}, {"temp_c", true, norm(61, 6, 0, 1, 0)}, {"status", false, oneOf("ok", "ok", "ok", "warn", "fault")},
	}},
	{name: "air_quality.json", rows: 90, cols: []col{
		{"city", false, oneOf("Delhi", "Paris", "Lima", "Seoul", "Cairo")}, {"day", false, isoDate(0, 1, 0)},
		{"pm25", true, norm(35, 20, 2, 1, 30)}, {"no2", true, norm(28, 9, 1, 1, 0)}, {"ozone", true, norm(41, 12, 1, 1, 0)},
	}},
	{name: "stock_prices.csv", rows: 160, cols: []col{
		{"date", false, isoDate(0, 1, 0)}, {"ticker", false, oneOf("ACME", "GLOBEX", "INITECH")},
		{"open", true, norm(120, 15, 10, 2, 0)}, {"close", true, norm(121, 15, 10, 2, 0)}, {"volume", true, norm(1.2e6, 3e5, 1000, 0, 0)},
	}},
	{name: "household_expenses.csv", rows: 110, cols: []col{
		{"date", false, mixedDate(0, 3, 2)}, {"category", false, messyCat(5, "Groceries", "Rent", "Transport", "Utilities", "Dining")},
		{"description", false, oneOf("card payment", "bank transfer", "cash", "direct debit")}, {"amount", true, norm(85, 60, 2, 2, 30)},
	}, nulls: 3, nullCols: []int{1}, dups: 2},
	{name: "bank_transactions.json", rows: 100, cols: []col{
		{"txn_id", false, seqID("T", 90001)}, {"account", false, oneOf("checking", "savings")}, {"posted", false, isoDate(0, 2, 1)},
		{"type", false, oneOf("deposit", "withdrawal", "fee", "transfer")}, {"amount", true, norm(420, 300, 1, 2, 40)},
	}},
	{name: "department_budget.xlsx", rows: 40, cols: []col{
		{"department", false, oneOf("IT", "HR", "Operations", "Marketing", "R&D")}, {"quarter", false, oneOf("Q1", "Q2", "Q3", "Q4")},
		{"planned", true, norm(250000, 60000, 20000, 0, 0)}, {"actual", true, norm(255000, 70000, 20000, 0, 0)},
	}},
	{name: "loan_applications.csv", rows: 140, cols: []col{
		{"applicant_id", false, seqID("L", 3001)}, {"age", true, intIn(21, 68)}, {"income", true, norm(52000, 18000, 9000, 0, 40)},
		{"loan_amount", true, norm(15000, 8000, 500, 0, 0)}, {"credit_score", true, norm(680, 60, 300, 0, 0)}, {"approved", false, oneOf("yes", "no")},
	}, nulls: 5, nullCols: []int{2, 4}},
	{name: "football_matches.csv", rows: 120, cols: []col{
		{"match_date", false, isoDate(0, 3, 0)}, {"home_team", false, oneOf("Rovers", "United", "City", "Athletic", "Wanderers")},
		{"away_team", false, oneOf("Rangers", "Albion", "Town", "Villa", "County")}, {"home_goals", true, intIn(0, 4)}, {"away_goals", true, intIn(0, 3)},
		{"attendance", false, money(21000, 6000)},
	}},
	{name: "marathon_results.tsv", rows: 150, cols: []col{
		{"bib", true, seqID("", 100)}, {"runner", false, person}, {"country", false, messyCat(10, "Kenya", "Japan", "Brazil", "Germany", "USA")},
		{"age_group", false, oneOf("18-34", "35-44", "45-54", "55+")}, {"finish_minutes", true, norm(245, 35, 125, 1, 0)},
	}},
	{name: "basketball_players.json", rows: 60, cols: []col{
		{"player", false, person}, {"team", false, oneOf("Hawks", "Comets", "Bears", "Sharks")}, {"position", false, oneOf("Guard", "Forward", "Center")},
		{"points_per_game", true, norm(14, 6, 1, 1, 0)}, {"rebounds", true, norm(5, 2.5, 0, 1, 0)}, {"height_cm", true, norm(199, 8, 170, 0, 0)},
	}},
	{name: "patients.csv", rows: 130, cols: []col{
		{"patient_id", false, seqID("P", 501)}, {"age", true, intIn(18, 90)}, {"sex", false, messyCat(8, "F", "M")},
		{"bmi", true, norm(26, 4.5, 15, 1, 0)}, {"systolic_bp", true, norm(128, 16, 80, 0, 60)}, {"cholesterol", true, norm(195, 35, 100, 0, 0)},
		{"diabetic", false, oneOf("no", "no", "no", "yes")},
	}, nulls: 7, nullCols: []int{3, 5}, dups: 2},
	{name: "clinic_visits.xlsx", rows: 90, cols: []col{
		{"visit_date", false, isoDate(0, 3, 2)}, {"clinic", false, oneOf("Eastside", "Westfield", "Central")},
		{"doctor", false, oneOf("Dr. Lee", "Dr. Moreau", "Dr. Okafor", "Dr. Silva")}, {"wait_minutes", true, norm(24, 12, 1, 0, 30)}, {"fee", true, norm(85, 20, 20, 2, 0)},
	}},
	{name: "sleep_log.csv", rows: 90, cols: []col{
		{"night", false, isoDate(0, 1, 0)}, {"hours_slept", true, norm(7, 1.1, 2, 1, 0)}, {"deep_sleep_pct", true, norm(18, 5, 2, 1, 0)},
		{"awakenings", true, intIn(0, 6)}, {"caffeine_mg", true, norm(150, 80, 0, 0, 0)},
	}},
	{name: "step_counts.json", rows: 84, cols: []col{
		{"day", false, isoDate(0, 1, 0)}, {"user", false, oneOf("anna", "ben", "chloe")}, {"steps", true, norm(8200, 3000, 300, 0, 0)},
		{"active_minutes", true, norm(48, 20, 0, 0, 0)},
	}},
	{name: "shipments.csv", rows: 170, cols: []col{
		{"shipment_id", false, seqID("SH", 70001)}, {"ship_date", false, mixedDate(0, 2, 1)},
		{"origin", false, messyCat(7, "Rotterdam", "Shanghai", "Houston", "Santos")}, {"destination", false, oneOf("Hamburg", "Singapore", "Los Angeles", "Durban")},
		{"weight_kg", true, norm(1200, 500, 20, 1, 35)}, {"cost_usd", false, money(3400, 1500)}, {"days_in_transit", true, intIn(4, 38)},
	}, nulls: 6, nullCols: []int{4, 6}, dups: 3},
	{name: "deliveries.tsv", rows: 140, cols: []col{
		{"courier", false, oneOf("FastGo", "ParcelPro", "QuickShip")}, {"zone", false, oneOf("A", "B", "C", "D")},
		{"distance_km", true, norm(12, 6, 0.5, 1, 0)}, {"minutes", true, norm(38, 14, 5, 0, 0)}, {"on_time", false, oneOf("yes", "yes", "no")},
	}},
	{name: "warehouse_stock.xlsx", rows: 70, cols: []col{
		{"sku", false, seqID("WH-", 4000)}, {"product", false, oneOf("Pallet Wrap", "Cardboard Box", "Tape", "Label Roll", "Bubble Wrap")},
		{"aisle", false, oneOf("A1", "A2", "B1", "C3")}, {"on_hand", true, intIn(0, 900)}, {"reorder_level", true, intIn(50, 200)}, {"unit_cost", true, norm(3.5, 2, 0.2, 2, 0)},
	}},
	{name: "fleet_fuel.csv", rows: 100, cols: []col{
		{"date", false, isoDate(0, 2, 1)}, {"vehicle", false, oneOf("VAN-1", "VAN-2", "TRUCK-7", "TRUCK-9")},
		{"litres", true, norm(62, 15, 5, 1, 0)}, {"km_driven", true, norm(540, 150, 20, 0, 0)}, {"price_per_litre", true, norm(1.72, 0.08, 1, 3, 0)},
	}},
	{name: "exam_results.csv", rows: 120, cols: []col{
		{"student_id", false, seqID("S", 2201)}, {"class", false, messyCat(8, "7A", "7B", "8A", "8B")},
		{"math", true, norm(68, 14, 0, 0, 0)}, {"english", true, norm(72, 11, 0, 0, 0)}, {"science", true, norm(65, 15, 0, 0, 0)},
	}, nulls: 4, nullCols: []int{2, 4}},
	{name: "course_enrollment.json", rows: 70, cols: []col{
		{"course", false, oneOf("Statistics", "Databases", "Machine Learning", "Web Design", "Ethics")}, {"term", false, oneOf("Fall", "Spring")},
		{"enrolled", true, intIn(12, 180)}, {"completion_rate", true, norm(0.82, 0.09, 0.3, 2, 0)}, {"rating", true, norm(4.1, 0.5, 1, 1, 0)},
	}},
	{name: "power_usage.csv", rows: 168, cols: []col{
		{"hour", false, func(_ *rand.Rand, i int) string { return date(i/24) + fmt.Sprintf(" %02d:00:00", i%24) }},
		{"kwh", true, func(r *rand.Rand, i int) string {
			return f2(1.2 + math.Sin(float64(i%24)/24*2*math.Pi-2)*0.8 + r.Float64()*0.4)
		}},
		{"tariff", false, func(_ *rand.Rand, i int) string {
			if h := i % 24; h >= 7 && h < 23 {
				return "peak"
			}
			return "off-peak"
		}},
	}},
	{name: "site_traffic.csv", rows: 120, cols: []col{
		{"date", false, isoDate(0, 1, 0)}, {"channel", false, messyCat(9, "Organic", "Paid", "Social", "Email")},
		{"sessions", true, norm(1800, 600, 50, 0, 45)}, {"bounce_rate", true, norm(0.46, 0.09, 0.05, 3, 0)}, {"conversions", true, intIn(0, 90)},
	}},
	{name: "app_reviews.json", rows: 80, cols: []col{
		{"review_id", false, seqID("RV", 100)}, {"version", false, oneOf("2.1", "2.2", "3.0")}, {"stars", true, intIn(1, 5)},
		{"device", false, oneOf("android", "ios")}, {"text", false, oneOf("Great app, very fast", "Crashes on startup", "Love the new design", "Too many ads", "Works fine", "Battery drain after update")},
	}},
	{name: "rental_listings.csv", rows: 150, cols: []col{
		{"listing_id", false, seqID("H", 8001)}, {"district", false, messyCat(7, "Centre", "Riverside", "University", "Old Port")},
		{"rooms", true, intIn(1, 5)}, {"size_m2", true, norm(68, 25, 18, 0, 0)}, {"monthly_rent", false, money(1450, 500)}, {"furnished", false, oneOf("yes", "no")},
	}, nulls: 4, nullCols: []int{3}},
	{name: "crop_yield.csv", rows: 96, cols: []col{
		{"farm", false, oneOf("Green Acres", "Sunny Side", "Oak Farm", "River Bend")}, {"crop", false, oneOf("wheat", "maize", "barley", "soy")},
		{"year", true, intIn(2015, 2023)}, {"rainfall_mm", true, norm(620, 140, 150, 0, 0)}, {"fertilizer_kg_ha", true, norm(120, 30, 0, 0, 0)}, {"yield_t_ha", true, norm(5.2, 1.3, 0.5, 2, 0)},
	}},
	{name: "taxi_trips.csv", rows: 200, cols: []col{
		{"pickup_time", false, func(r *rand.Rand, i int) string {
			return date(i/20) + fmt.Sprintf(" %02d:%02d:00", r.IntN(24), r.IntN(60))
		}},
		{"distance_km", true, norm(6, 4, 0.3, 1, 50)}, {"fare", true, norm(16, 8, 3, 2, 0)}, {"tip", true, norm(2, 1.5, 0, 2, 0)},
		{"payment", false, messyCat(6, "card", "cash")}, {"passengers", true, intIn(1, 4)},
	}, nulls: 4, nullCols: []int{3}},
	{name: "menu_orders_cn.xlsx", rows: 100, cols: []col{
		{"日期", false, isoDate(0, 1, 2)}, {"菜品", false, oneOf("宫保鸡丁", "麻婆豆腐", "红烧肉", "清蒸鱼", "炒青菜")},
		{"份数", true, intIn(1, 30)}, {"单价", true, norm(38, 12, 8, 0, 0)}, {"门店", false, oneOf("朝阳店", "海淀店", "浦东店")},
	}},
	{name: "films.csv", rows: 80, cols: []col{
		{"title", false, func(r *rand.Rand, i int) string {
			return pick(r, []string{"The Last", "Silent", "Midnight", "Broken", "Golden", "Hidden"}) + " " + pick(r, []string{"River", "Garden", "Signal", "Harbor", "Empire", "Voyage"}) + " " + strconv.Itoa(i+1)
		}},
		{"genre", false, messyCat(8, "Drama", "Comedy", "Thriller", "Sci-Fi")}, {"year", true, intIn(1995, 2023)},
		{"runtime_min", true, norm(112, 18, 75, 0, 0)}, {"budget_musd", true, norm(45, 30, 1, 1, 30)}, {"box_office_musd", true, norm(120, 90, 0.5, 1, 0)},
	}},
	{name: "city_population.csv", rows: 40, cols: []col{
		{"city", false, func(_ *rand.Rand, i int) string {
			return fmt.Sprintf("%s %s", cities[i%len(cities)], []string{"North", "South", "East", "West", "Central", "Bay", "Hills"}[i%7])
		}},
		{"country", false, oneOf("DE", "PT", "JP", "CA", "KE", "AU")}, {"population", false, money(850000, 400000)}, {"area_km2", true, norm(310, 120, 40, 1, 0)},
	}},
	{name: "customer_survey.csv", rows: 110, cols: []col{
		{"response_id", false, seqID("Q", 1)}, {"age_band", false, oneOf("18-24", "25-34", "35-44", "45-64", "65+")},
		{"satisfaction", true, intIn(1, 10)}, {"would_recommend", false, messyCat(6, "Yes", "No", "Maybe")}, {"spend_last_month", true, norm(120, 70, 0, 2, 30)},
	}, nulls: 5, nullCols: []int{2, 4}},
	{name: "library_loans.tsv", rows: 90, cols: []col{
		{"loan_date", false, isoDate(0, 2, 1)}, {"branch", false, oneOf("Main", "Riverside", "North")}, {"genre", false, oneOf("Fiction", "History", "Science", "Children")},
		{"days_kept", true, intIn(3, 35)}, {"late_fee", true, norm(0.8, 1.2, 0, 2, 0)},
	}},
	{name: "bike_rentals.xlsx", rows: 120, cols: []col{
		{"date", false, isoDate(0, 1, 0)}, {"station", false, oneOf("Central", "Park", "Harbor", "University")},
		{"rentals", true, norm(140, 45, 5, 0, 40)}, {"temp_c", true, norm(16, 7, -4, 1, 0)}, {"rain", false, oneOf("no", "no", "yes")},
	}},
	{name: "hotel_bookings.json", rows: 100, cols: []col{
		{"booking_id", false, seqID("B", 600)}, {"hotel", false, oneOf("Seaview", "Grand", "Alpine Lodge")}, {"nights", true, intIn(1, 10)},
		{"guests", true, intIn(1, 4)}, {"price_per_night", true, norm(135, 40, 45, 2, 0)}, {"cancelled", false, oneOf("no", "no", "no", "yes")},
	}},
}
