package fake

import "strings"

// culture is where a family comes from: the names its members are given,
// the cities it lives in, the mail providers it uses and the holiday it
// photographs every year.
type culture struct {
	female, male, surnames []string
	homes                  []string // "City/CC" of gazetteer cities
	domains                []string // local mail providers, besides the global ones
	holiday                holiday
	halloween, easter      bool
	feminineSurnames       bool // Polish -ski/-cki surnames take -ska/-cka for women
}

// holiday is a yearly family celebration: name, month and day range.
type holiday struct {
	name           string
	month          int
	dayMin, dayMax int
}

var christmas = holiday{"Christmas", 12, 24, 26}

// cultures is the table of name banks; read-only.
var cultures = [...]culture{
	{ // Portuguese
		female:   []string{"Ana", "Maria", "Beatriz", "Inês", "Mariana", "Carolina", "Sofia", "Leonor", "Matilde", "Joana", "Rita", "Catarina", "Marta", "Teresa", "Helena"},
		male:     []string{"João", "Tiago", "Pedro", "Miguel", "Rui", "Duarte", "Francisco", "Afonso", "Tomás", "Rodrigo", "Nuno", "Gonçalo", "Diogo", "Ricardo", "José"},
		surnames: []string{"Silva", "Santos", "Ferreira", "Pereira", "Oliveira", "Costa", "Rodrigues", "Martins", "Sousa", "Fernandes", "Gonçalves", "Ribeiro", "Carvalho", "Almeida", "Lopes"},
		homes:    []string{"Lisbon/PT", "Porto/PT"},
		domains:  []string{"sapo.pt"},
		holiday:  christmas, easter: true,
	},
	{ // Brazilian
		female:   []string{"Ana", "Juliana", "Fernanda", "Camila", "Larissa", "Gabriela", "Bruna", "Letícia", "Isabela", "Luiza", "Helena", "Alice", "Valentina", "Laura", "Manuela"},
		male:     []string{"Lucas", "Gabriel", "Rafael", "Gustavo", "Felipe", "Mateus", "Bruno", "Thiago", "Eduardo", "Leonardo", "Arthur", "Davi", "Bernardo", "Heitor", "Enzo"},
		surnames: []string{"Silva", "Souza", "Oliveira", "Lima", "Pereira", "Almeida", "Carvalho", "Gomes", "Ribeiro", "Araújo", "Barbosa", "Rocha", "Nascimento", "Moreira", "Cardoso"},
		homes:    []string{"São Paulo/BR", "Rio de Janeiro/BR", "Florianópolis/BR", "Salvador/BR"},
		domains:  []string{"uol.com.br", "bol.com.br"},
		holiday:  christmas, easter: true,
	},
	{ // British and Irish
		female:   []string{"Olivia", "Amelia", "Isla", "Emily", "Sophie", "Charlotte", "Grace", "Lucy", "Hannah", "Chloe", "Ella", "Rosie", "Freya", "Eleanor", "Harriet"},
		male:     []string{"Oliver", "Harry", "George", "Jack", "Thomas", "James", "William", "Alfie", "Oscar", "Charlie", "Henry", "Samuel", "Edward", "Joseph", "Archie"},
		surnames: []string{"Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Evans", "Davies", "Walker", "Wright", "Thompson", "Robinson", "Hughes", "Clarke", "Murphy"},
		homes:    []string{"London/GB", "Manchester/GB", "Edinburgh/GB", "Dublin/IE"},
		domains:  []string{"btinternet.com", "sky.com"},
		holiday:  christmas, easter: true, halloween: true,
	},
	{ // American
		female:   []string{"Emma", "Olivia", "Ava", "Sophia", "Mia", "Abigail", "Madison", "Harper", "Ella", "Avery", "Chloe", "Lily", "Grace", "Natalie", "Hailey"},
		male:     []string{"Liam", "Noah", "Ethan", "Mason", "Logan", "Jacob", "Michael", "Daniel", "Benjamin", "Lucas", "Jackson", "Aiden", "Caleb", "Ryan", "Nathan"},
		surnames: []string{"Johnson", "Miller", "Davis", "Garcia", "Anderson", "Martinez", "Thomas", "Moore", "Jackson", "Martin", "Lee", "Harris", "Clark", "Lewis", "Young"},
		homes:    []string{"New York/US", "Boston/US", "Chicago/US", "Austin/US", "Denver/US", "Seattle/US", "San Francisco/US", "Portland/US", "Toronto/CA", "Vancouver/CA"},
		domains:  []string{"yahoo.com", "aol.com"},
		holiday:  christmas, easter: true, halloween: true,
	},
	{ // German, Austrian, Swiss
		female:   []string{"Anna", "Lena", "Lea", "Hannah", "Mia", "Emilia", "Sophie", "Marie", "Laura", "Katharina", "Julia", "Johanna", "Clara", "Paula", "Greta"},
		male:     []string{"Lukas", "Leon", "Finn", "Jonas", "Paul", "Felix", "Maximilian", "Elias", "Tobias", "Moritz", "Jan", "Niklas", "Sebastian", "Florian", "Matthias"},
		surnames: []string{"Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann", "Koch", "Richter", "Klein", "Wolf", "Neumann"},
		homes:    []string{"Berlin/DE", "Munich/DE", "Hamburg/DE", "Cologne/DE", "Vienna/AT", "Zurich/CH"},
		domains:  []string{"gmx.de", "web.de", "t-online.de"},
		holiday:  christmas, easter: true,
	},
	{ // French and Belgian
		female:   []string{"Camille", "Léa", "Chloé", "Manon", "Inès", "Jade", "Louise", "Alice", "Zoé", "Juliette", "Margaux", "Clémence", "Élise", "Pauline", "Mathilde"},
		male:     []string{"Louis", "Gabriel", "Hugo", "Arthur", "Jules", "Lucas", "Raphaël", "Théo", "Nathan", "Antoine", "Mathis", "Baptiste", "Julien", "Maxime", "Thomas"},
		surnames: []string{"Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau", "Simon", "Laurent", "Lefebvre", "Michel", "Garnier"},
		homes:    []string{"Paris/FR", "Lyon/FR", "Bordeaux/FR", "Nice/FR", "Brussels/BE"},
		domains:  []string{"orange.fr", "free.fr", "laposte.net"},
		holiday:  christmas, easter: true,
	},
	{ // Spanish
		female:   []string{"Lucía", "Sofía", "Martina", "María", "Paula", "Julia", "Carmen", "Elena", "Alba", "Laura", "Marta", "Irene", "Noa", "Claudia", "Sara"},
		male:     []string{"Hugo", "Martín", "Pablo", "Daniel", "Alejandro", "Mateo", "Álvaro", "Adrián", "Diego", "Javier", "Sergio", "Carlos", "Manuel", "Jorge", "Marcos"},
		surnames: []string{"García", "Fernández", "González", "Rodríguez", "López", "Martínez", "Sánchez", "Pérez", "Gómez", "Martín", "Jiménez", "Ruiz", "Hernández", "Díaz", "Moreno"},
		homes:    []string{"Madrid/ES", "Barcelona/ES", "Seville/ES"},
		domains:  []string{"telefonica.net"},
		holiday:  christmas, easter: true,
	},
	{ // Italian
		female:   []string{"Giulia", "Sofia", "Aurora", "Alice", "Ginevra", "Emma", "Giorgia", "Beatrice", "Chiara", "Francesca", "Martina", "Elena", "Sara", "Anna", "Valentina"},
		male:     []string{"Leonardo", "Francesco", "Alessandro", "Lorenzo", "Mattia", "Andrea", "Gabriele", "Tommaso", "Riccardo", "Marco", "Luca", "Matteo", "Davide", "Giovanni", "Federico"},
		surnames: []string{"Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Bruno", "Gallo", "Conti", "De Luca", "Costa"},
		homes:    []string{"Rome/IT", "Milan/IT", "Florence/IT", "Naples/IT"},
		domains:  []string{"libero.it", "virgilio.it"},
		holiday:  christmas, easter: true,
	},
	{ // Dutch
		female:   []string{"Emma", "Julia", "Sophie", "Tess", "Anna", "Fleur", "Sanne", "Lotte", "Eva", "Noor", "Femke", "Isa", "Lieke", "Anouk", "Maud"},
		male:     []string{"Daan", "Sem", "Lucas", "Bram", "Thijs", "Jesse", "Ruben", "Lars", "Luuk", "Stijn", "Milan", "Jasper", "Tim", "Joris", "Niels"},
		surnames: []string{"de Jong", "Jansen", "de Vries", "van den Berg", "van Dijk", "Bakker", "Janssen", "Visser", "Smit", "Meijer", "de Boer", "Mulder", "de Groot", "Bos", "Vos"},
		homes:    []string{"Amsterdam/NL", "Utrecht/NL"},
		domains:  []string{"ziggo.nl", "kpnmail.nl"},
		holiday:  holiday{"Sinterklaas", 12, 5, 5}, easter: true,
	},
	{ // Polish
		female:           []string{"Zuzanna", "Julia", "Maja", "Zofia", "Hanna", "Lena", "Alicja", "Maria", "Amelia", "Oliwia", "Natalia", "Katarzyna", "Agnieszka", "Magdalena", "Anna"},
		male:             []string{"Jakub", "Antoni", "Jan", "Szymon", "Filip", "Kacper", "Aleksander", "Franciszek", "Mikołaj", "Wojciech", "Piotr", "Tomasz", "Krzysztof", "Paweł", "Michał"},
		surnames:         []string{"Nowak", "Kowalski", "Wiśniewski", "Wójcik", "Kowalczyk", "Kamiński", "Lewandowski", "Zieliński", "Szymański", "Woźniak", "Dąbrowski", "Kozłowski", "Jankowski", "Mazur", "Krawczyk"},
		homes:            []string{"Warsaw/PL", "Kraków/PL", "Gdańsk/PL"},
		domains:          []string{"wp.pl", "onet.pl", "o2.pl"},
		holiday:          holiday{"Christmas Eve", 12, 24, 24},
		easter:           true,
		feminineSurnames: true,
	},
	{ // Japanese
		female:   []string{"Yui", "Hina", "Sakura", "Aoi", "Yuna", "Mei", "Rin", "Haruka", "Misaki", "Yuki", "Emi", "Naomi", "Akiko", "Keiko", "Kana"},
		male:     []string{"Haruto", "Sota", "Yuto", "Ren", "Hiroshi", "Takumi", "Kenji", "Daiki", "Ryota", "Kaito", "Sho", "Yusuke", "Takeshi", "Kazuki", "Riku"},
		surnames: []string{"Sato", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Ito", "Yamamoto", "Nakamura", "Kobayashi", "Kato", "Yoshida", "Yamada", "Sasaki", "Yamaguchi", "Matsumoto"},
		homes:    []string{"Tokyo/JP", "Osaka/JP", "Kyoto/JP", "Sapporo/JP"},
		domains:  []string{"yahoo.co.jp", "docomo.ne.jp"},
		holiday:  holiday{"Obon", 8, 13, 16},
	},
	{ // Korean
		female:   []string{"Seo-yeon", "Ji-woo", "Ha-eun", "Min-seo", "Soo-ah", "Ji-min", "Yuna", "Eun-ji", "Hye-jin", "Da-eun"},
		male:     []string{"Min-jun", "Seo-jun", "Do-yoon", "Ji-ho", "Ha-joon", "Jae-won", "Hyun-woo", "Sung-min", "Joon-ho", "Tae-yang"},
		surnames: []string{"Kim", "Lee", "Park", "Choi", "Jung", "Kang", "Cho", "Yoon", "Jang", "Lim"},
		homes:    []string{"Seoul/KR", "Busan/KR"},
		domains:  []string{"naver.com", "daum.net"},
		holiday:  holiday{"Chuseok", 9, 15, 30},
	},
	{ // Indian
		female:   []string{"Priya", "Ananya", "Aditi", "Diya", "Isha", "Kavya", "Meera", "Neha", "Pooja", "Riya", "Saanvi", "Shreya", "Sneha", "Aarohi", "Lakshmi"},
		male:     []string{"Aarav", "Arjun", "Vivaan", "Rohan", "Rahul", "Vikram", "Aditya", "Karan", "Nikhil", "Siddharth", "Ishaan", "Ravi", "Sanjay", "Amit", "Dev"},
		surnames: []string{"Sharma", "Patel", "Gupta", "Singh", "Kumar", "Reddy", "Iyer", "Nair", "Rao", "Mehta", "Joshi", "Desai", "Menon", "Kapoor", "Chatterjee"},
		homes:    []string{"Mumbai/IN", "Bengaluru/IN", "New Delhi/IN"},
		domains:  []string{"rediffmail.com"},
		holiday:  holiday{"Diwali", 11, 1, 12},
	},
	{ // Nigerian and Ghanaian
		female:   []string{"Chioma", "Ngozi", "Adaeze", "Amara", "Funmilayo", "Folake", "Yetunde", "Aisha", "Zainab", "Ifeoma", "Temitope", "Blessing", "Kemi", "Efua", "Abena"},
		male:     []string{"Chinedu", "Emeka", "Oluwaseun", "Tunde", "Babajide", "Obinna", "Ifeanyi", "Kwame", "Kofi", "Yaw", "Segun", "Femi", "Ikenna", "Chukwuma", "Adebayo"},
		surnames: []string{"Okafor", "Adeyemi", "Okonkwo", "Balogun", "Eze", "Nwosu", "Ogunleye", "Adeleke", "Mensah", "Boateng", "Asante", "Owusu", "Obi", "Afolabi", "Ibrahim"},
		homes:    []string{"Lagos/NG", "Accra/GH"},
		domains:  []string{"yahoo.com"},
		holiday:  christmas, easter: true,
	},
	{ // Australian and New Zealander
		female:   []string{"Charlotte", "Mia", "Amelia", "Isla", "Olivia", "Matilda", "Ruby", "Zoe", "Sienna", "Harper", "Chloe", "Jessica", "Sarah", "Kate", "Emily"},
		male:     []string{"Oliver", "Noah", "Jack", "William", "Leo", "Lucas", "Thomas", "Henry", "Cooper", "Hudson", "Liam", "Mitchell", "Lachlan", "Riley", "Ben"},
		surnames: []string{"Smith", "Jones", "Williams", "Brown", "Wilson", "Taylor", "Johnson", "White", "Martin", "Anderson", "Thompson", "Nguyen", "Ryan", "Kelly", "Walker"},
		homes:    []string{"Sydney/AU", "Melbourne/AU", "Brisbane/AU", "Perth/AU", "Auckland/NZ", "Wellington/NZ"},
		domains:  []string{"bigpond.com", "optusnet.com.au"},
		holiday:  christmas, easter: true,
	},
	{ // Latin American
		female:   []string{"Valentina", "Camila", "Ximena", "Regina", "Renata", "Daniela", "Fernanda", "Isabella", "Sofía", "Mariana", "Guadalupe", "Andrea", "Gabriela", "Paola", "Victoria"},
		male:     []string{"Santiago", "Sebastián", "Mateo", "Leonardo", "Emiliano", "Diego", "Alejandro", "Joaquín", "Tomás", "Nicolás", "Andrés", "Rodrigo", "Luis", "Miguel", "Javier"},
		surnames: []string{"Hernández", "García", "Martínez", "López", "González", "Rodríguez", "Pérez", "Sánchez", "Ramírez", "Torres", "Flores", "Rivera", "Gómez", "Díaz", "Vargas"},
		homes:    []string{"Mexico City/MX", "Bogotá/CO", "Buenos Aires/AR", "Santiago/CL", "Lima/PE", "Montevideo/UY"},
		domains:  []string{"yahoo.com.mx", "hotmail.es"},
		holiday:  christmas, easter: true,
	},
}

// globalDomains are the mail providers people use everywhere.
var globalDomains = [...]string{"gmail.com", "gmail.com", "gmail.com", "outlook.com", "icloud.com", "hotmail.com", "proton.me", "yahoo.com"}

// surnameFor returns surname as a woman (female) or man of culture c carries it.
func (c *culture) surnameFor(surname string, female bool) string {
	if !female || !c.feminineSurnames {
		return surname
	}
	for _, suffix := range []string{"ski", "cki", "dzki"} {
		if base, ok := strings.CutSuffix(surname, suffix); ok {
			return base + suffix[:len(suffix)-1] + "a"
		}
	}
	return surname
}

// asciiFold maps the letters of the name banks to what people type in mail
// addresses.
var asciiFold = strings.NewReplacer(
	"á", "a", "à", "a", "â", "a", "ã", "a", "ä", "a", "å", "a", "ą", "a",
	"ç", "c", "ć", "c", "é", "e", "è", "e", "ê", "e", "ë", "e", "ę", "e", "É", "e",
	"í", "i", "ì", "i", "î", "i", "ï", "i", "ł", "l", "ñ", "n", "ń", "n",
	"ó", "o", "ò", "o", "ô", "o", "õ", "o", "ö", "oe", "ø", "o",
	"ú", "u", "ù", "u", "û", "u", "ü", "ue", "ś", "s", "ź", "z", "ż", "z", "ß", "ss", "Á", "a",
	" ", "", "-", "", "'", "",
)

// mailLocal turns a name into the lower-case ASCII a mail address holds.
func mailLocal(name string) string {
	return asciiFold.Replace(strings.ToLower(name))
}
